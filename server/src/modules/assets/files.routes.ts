import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { asc, count, sql } from 'drizzle-orm'
import { files } from '../../db/schema.ts'
import { ArrayResponse, errors, PageQuery } from '../../http/schema.ts'
import { LocalFile } from './assets.schemas.ts'

/** Admin — stored files (api-contract §2.2, `GET /api/admin/files`). */
export const fileListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps
  app.get(
    '/files',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'A page of stored files, by name',
        tags: ['Admin'],
        querystring: PageQuery(500, 50),
        response: { 200: ArrayResponse(LocalFile), ...errors(401, 403) },
      },
    },
    async (request) => {
      const [rows, [total]] = await Promise.all([
        db
          .select({ hash: files.hash, name: files.name })
          .from(files)
          .orderBy(sql`${files.name} collate "C"`, asc(files.id))
          .limit(request.query.count)
          .offset(request.query.skip),
        db.select({ n: count() }).from(files),
      ])
      // `total` counts every file (upstream gives the page length), so a client can page.
      return { data: rows, length: rows.length, total: total?.n ?? 0 }
    },
  )
}
