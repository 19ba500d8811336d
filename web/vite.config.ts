import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The server's pure game rules (score curve, blood bonus, ...): one implementation for both.
      '@engine': fileURLToPath(new URL('../server/src/engine', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    // The report in scripts/bundle-size.mjs reads the manifest to add up each route's first load.
    manifest: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      output: {
        entryFileNames: 'static/[name].[hash].js',
        chunkFileNames: 'static/[name].[hash].js',
        assetFileNames: 'static/[name].[hash][extname]',
      },
    },
  },
  server: {
    port: 63000,
    proxy: Object.fromEntries(
      ['/api', '/assets', '/hub', '/openapi'].map((p) => [
        p,
        { target: process.env.VITE_BACKEND_URL ?? 'http://localhost:8080', ws: p === '/hub' },
      ]),
    ),
  },
})
