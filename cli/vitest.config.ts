import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // The server tests start a real app, on PGlite unless TEST_DATABASE_URL names a PostgreSQL server.
    hookTimeout: 60_000,
  },
})
