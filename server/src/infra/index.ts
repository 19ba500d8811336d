import path from 'node:path'
import type { Config } from '../config/index.ts'
import type { Cache } from './cache/index.ts'
import { createMemoryCache } from './cache/memory.ts'
import type { Mailer } from './mail/index.ts'
import { createSmtpMailer, noMailer } from './mail/smtp.ts'
import type { BlobStorage } from './storage/index.ts'
import { createLocalStorage } from './storage/local.ts'

/** The outside world, each part behind its port. */
export interface Infra {
  cache: Cache
  storage: BlobStorage
  mailer: Mailer
}

/** The one place that picks an implementation for each port from the configuration. */
export function createInfra(config: Config): Infra {
  return {
    cache: createMemoryCache(),
    storage: createLocalStorage(path.join(config.dataDir, 'files')),
    mailer: config.smtp ? createSmtpMailer(config.smtp) : noMailer,
  }
}

export async function closeInfra(infra: Infra): Promise<void> {
  await Promise.all([infra.cache.close(), infra.mailer.close()])
}
