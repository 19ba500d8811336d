/** The baseline for scoreboard reads: bare Fastify sending the same bytes, with the same load, taking turns with the server in the same run. */
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const payload = readFileSync(process.argv[2]!)
const app = Fastify({ logger: false })
app.get('/board', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(payload)
})
await app.listen({ port: Number(process.argv[3]), host: '127.0.0.1' })
process.stdout.write('ready\n')
