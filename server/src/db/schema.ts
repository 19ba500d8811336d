import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core'

/** Timestamps are UTC instants; "never" is the Unix epoch, as the contract writes it (`0`). */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const EPOCH = sql`'1970-01-01T00:00:00Z'::timestamptz`

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    userName: varchar('user_name', { length: 16 }).notNull(),
    /** Lower-cased user name: names are unique without regard to case. */
    normalizedUserName: varchar('normalized_user_name', { length: 16 }).notNull(),
    email: varchar('email', { length: 256 }).notNull(),
    normalizedEmail: varchar('normalized_email', { length: 256 }).notNull(),
    emailConfirmed: boolean('email_confirmed').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    /** `Role`: Banned 0, User 1, Monitor 2, Admin 3. */
    role: integer('role').notNull().default(1),
    ip: varchar('ip', { length: 40 }).notNull().default('0.0.0.0'),
    lastSignedInUtc: ts('last_signed_in_utc').notNull().default(EPOCH),
    lastVisitedUtc: ts('last_visited_utc').notNull().default(EPOCH),
    registerTimeUtc: ts('register_time_utc').notNull().default(EPOCH),
    bio: varchar('bio', { length: 128 }).notNull().default(''),
    realName: varchar('real_name', { length: 128 }).notNull().default(''),
    stdNumber: varchar('std_number', { length: 64 }).notNull().default(''),
    phone: varchar('phone', { length: 32 }),
    avatarHash: varchar('avatar_hash', { length: 64 }),
  },
  (t) => [
    uniqueIndex('users_normalized_user_name_key').on(t.normalizedUserName),
    uniqueIndex('users_normalized_email_key').on(t.normalizedEmail),
  ],
)

/** Sign-in sessions. The cookie holds a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
)

/** Single-use tokens mailed to users: e-mail confirmation, password reset, e-mail change. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 16 }).notNull(),
    /** The address the token was mailed to (the new address for an e-mail change). */
    email: varchar('email', { length: 256 }).notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('user_tokens_user_id_idx').on(t.userId)],
)

/** Runtime settings editable by admins, one JSON document per section. */
export const configs = pgTable('configs', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
})

export const posts = pgTable('posts', {
  /** Eight lowercase hex characters, as upstream. */
  id: varchar('id', { length: 8 }).primaryKey(),
  title: varchar('title', { length: 50 }).notNull(),
  summary: text('summary').notNull().default(''),
  content: text('content').notNull().default(''),
  isPinned: boolean('is_pinned').notNull().default(false),
  tags: jsonb('tags').$type<string[]>().notNull().default([]),
  authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
  updateTimeUtc: ts('update_time_utc').notNull(),
})

/** The audit log shown to admins (level Information and above). */
export const logs = pgTable(
  'logs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    timeUtc: ts('time_utc').notNull(),
    level: varchar('level', { length: 15 }).notNull(),
    logger: varchar('logger', { length: 250 }).notNull(),
    status: varchar('status', { length: 10 }),
    remoteIp: varchar('remote_ip', { length: 40 }),
    userName: varchar('user_name', { length: 16 }),
    message: text('message').notNull(),
    exception: text('exception'),
  },
  (t) => [index('logs_time_utc_idx').on(t.timeUtc)],
)

/** Content-addressed blobs: one row per distinct content, reference counted. */
export const files = pgTable(
  'files',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Lowercase hex SHA-256 of the stored bytes. */
    hash: varchar('hash', { length: 64 }).notNull(),
    name: text('name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    uploadTimeUtc: ts('upload_time_utc').notNull(),
    referenceCount: bigint('reference_count', { mode: 'number' }).notNull().default(1),
  },
  (t) => [uniqueIndex('files_hash_key').on(t.hash)],
)
