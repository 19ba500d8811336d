import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
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
    /** Set on an account whose password the platform chose (the first admin's): asked to change it. */
    passwordChangeRequired: boolean('password_change_required').notNull().default(false),
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

/**
 * API tokens for tools (monitor routes). The token string is shown once at creation; only its
 * SHA-256 is kept, beside the signed payload's id (`jti`).
 */
export const apiTokens = pgTable('api_tokens', {
  id: uuid('id').primaryKey(),
  name: varchar('name', { length: 128 }).notNull(),
  creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
  tokenHash: varchar('token_hash', { length: 64 }).notNull(),
  createdAt: ts('created_at').notNull(),
  /** Null: never expires. */
  expiresAt: ts('expires_at'),
  lastUsedAt: ts('last_used_at'),
  isRevoked: boolean('is_revoked').notNull().default(false),
})

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

// ---- Teams -------------------------------------------------------------------------------

export const teams = pgTable(
  'teams',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: varchar('name', { length: 20 }).notNull(),
    bio: varchar('bio', { length: 72 }),
    avatarHash: varchar('avatar_hash', { length: 64 }),
    /** Set when a participation is accepted: members cannot change while a game is unfinished. */
    locked: boolean('locked').notNull().default(false),
    /** 32 lowercase hex characters; part of the invite code. */
    inviteToken: varchar('invite_token', { length: 32 }).notNull(),
    captainId: uuid('captain_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('teams_captain_id_idx').on(t.captainId)],
)

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_id_idx').on(t.userId)],
)

// ---- Games -------------------------------------------------------------------------------

export const games = pgTable('games', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  title: text('title').notNull(),
  /** Base64 of the raw Ed25519 public key (32 bytes). */
  publicKey: varchar('public_key', { length: 63 }).notNull(),
  /** Base64 of the raw Ed25519 private key; also the seed of the team-hash salt. */
  privateKey: varchar('private_key', { length: 128 }).notNull(),
  hidden: boolean('hidden').notNull().default(false),
  posterHash: varchar('poster_hash', { length: 64 }),
  summary: text('summary').notNull().default(''),
  content: text('content').notNull().default(''),
  acceptWithoutReview: boolean('accept_without_review').notNull().default(false),
  writeupRequired: boolean('writeup_required').notNull().default(false),
  inviteCode: varchar('invite_code', { length: 32 }),
  divisions: jsonb('divisions').$type<string[]>().notNull().default([]),
  teamMemberCountLimit: integer('team_member_count_limit').notNull().default(0),
  containerCountLimit: integer('container_count_limit').notNull().default(3),
  startTimeUtc: ts('start_time_utc').notNull(),
  endTimeUtc: ts('end_time_utc').notNull(),
  writeupDeadline: ts('writeup_deadline').notNull(),
  writeupNote: text('writeup_note').notNull().default(''),
  bloodBonus: bigint('blood_bonus', { mode: 'number' }).notNull().default(52459530),
  practiceMode: boolean('practice_mode').notNull().default(true),
  /** Our addition: from this instant players see the board as it stood then; null, no freeze. */
  freezeAt: ts('freeze_at'),
  /** When the true board is published again (an admin's reveal sets it to now); null, not yet. */
  revealAt: ts('reveal_at'),
})

/**
 * A running (or starting) challenge container: a team's instance or an organiser's test
 * container. The row is written before the backend is asked to start anything, so a
 * container we own always has a row, and deleted once the container is gone.
 */
export const containers = pgTable(
  'containers',
  {
    /** The public handle: `containerGuid`, label of the backend container, later the proxy entry. */
    id: uuid('id').primaryKey(),
    image: text('image').notNull(),
    /** The backend's own id (Docker container, Swarm service); empty while starting. */
    containerId: text('container_id').notNull().default(''),
    /** `ContainerStatus`: Pending 0, Running 1, Destroyed 2. */
    status: smallint('status').notNull().default(0),
    startedAt: ts('started_at').notNull(),
    expectStopAt: ts('expect_stop_at').notNull(),
    isProxy: boolean('is_proxy').notNull().default(false),
    /** Where the platform reaches the service (container address and exposed port). */
    ip: text('ip').notNull().default(''),
    port: integer('port').notNull().default(0),
    /** Where players reach it with the Default port mapping. */
    publicIp: text('public_ip'),
    publicPort: integer('public_port'),
    /** What it belongs to; kept (set null) when those go, so the reaper still finds it. */
    gameId: integer('game_id').references(() => games.id, { onDelete: 'set null' }),
    challengeId: integer('challenge_id').references((): AnyPgColumn => challenges.id, {
      onDelete: 'set null',
    }),
    participationId: integer('participation_id').references((): AnyPgColumn => participations.id, {
      onDelete: 'set null',
    }),
    teamId: integer('team_id').references(() => teams.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** An organiser's test container (no team, no events). */
    isTest: boolean('is_test').notNull().default(false),
  },
  (t) => [
    index('containers_expect_stop_at_idx').on(t.expectStopAt),
    index('containers_participation_idx').on(t.participationId),
  ],
)

/** A file handed to players: none, a stored blob (by hash) or a remote URL. */
export const attachments = pgTable('attachments', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  /** `FileType`: None 0, Local 1, Remote 2. */
  type: smallint('type').notNull(),
  remoteUrl: text('remote_url'),
  fileHash: varchar('file_hash', { length: 64 }).references(() => files.hash, { onDelete: 'set null' }),
})

export const challenges = pgTable(
  'challenges',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    /** `ChallengeCategory` value. */
    category: smallint('category').notNull().default(0),
    /** `ChallengeType` value; fixed at creation. */
    type: smallint('type').notNull().default(0),
    hints: jsonb('hints').$type<string[]>().notNull().default([]),
    isEnabled: boolean('is_enabled').notNull().default(false),
    /** Teams that solved it before the end (drives the dynamic score). */
    acceptedCount: integer('accepted_count').notNull().default(0),
    submissionCount: integer('submission_count').notNull().default(0),
    submissionLimit: integer('submission_limit').notNull().default(0),
    containerImage: text('container_image').notNull().default(''),
    memoryLimit: integer('memory_limit').notNull().default(64),
    storageLimit: integer('storage_limit').notNull().default(256),
    cpuCount: integer('cpu_count').notNull().default(1),
    containerExposePort: integer('container_expose_port').notNull().default(80),
    fileName: text('file_name').notNull().default('attachment'),
    flagTemplate: varchar('flag_template', { length: 120 }),
    attachmentId: integer('attachment_id').references(() => attachments.id, { onDelete: 'set null' }),
    /** The organisers' test container of this challenge, if one runs. */
    testContainerId: uuid('test_container_id').references(() => containers.id, { onDelete: 'set null' }),
    enableTrafficCapture: boolean('enable_traffic_capture').notNull().default(false),
    disableBloodBonus: boolean('disable_blood_bonus').notNull().default(false),
    originalScore: integer('original_score').notNull().default(1000),
    minScoreRate: doublePrecision('min_score_rate').notNull().default(0.25),
    difficulty: doublePrecision('difficulty').notNull().default(5),
    /** Our addition, scheduled release: shown to players from `openAt`, answers taken until `closeAt`. */
    openAt: ts('open_at'),
    closeAt: ts('close_at'),
    /**
     * The new-challenge notice of its opening was posted (or is not due): set by the one
     * conditional UPDATE that posts it, so several servers post it once between them.
     */
    openNoticed: boolean('open_noticed').notNull().default(false),
    /**
     * Our addition, challenges as code: the folder (`web/sqli`) a `pennant` sync ties this
     * challenge to; unique per game, null for challenges made by hand. Never shown to players.
     */
    sourceKey: varchar('source_key', { length: 255 }),
  },
  (t) => [
    index('challenges_game_id_idx').on(t.gameId),
    uniqueIndex('challenges_game_id_source_key_idx').on(t.gameId, t.sourceKey),
  ],
)

/** Every flag the platform knows: static flags and the dynamic-attachment pool. */
export const flags = pgTable(
  'flags',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    challengeId: integer('challenge_id')
      .notNull()
      .references(() => challenges.id, { onDelete: 'cascade' }),
    /** Stored as entered (not trimmed). */
    flag: varchar('flag', { length: 127 }).notNull(),
    /** Dynamic flags: handed to a team already. */
    isOccupied: boolean('is_occupied').notNull().default(false),
    attachmentId: integer('attachment_id').references(() => attachments.id, { onDelete: 'set null' }),
  },
  // By challenge and text: the judge's "is it right" and "whose flag is it" are index look-ups.
  (t) => [index('flags_challenge_id_flag_idx').on(t.challengeId, t.flag)],
)

export const gameNotices = pgTable(
  'game_notices',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    /** `NoticeType` value. */
    type: smallint('type').notNull(),
    values: jsonb('values').$type<string[]>().notNull(),
    publishTimeUtc: ts('publish_time_utc').notNull(),
  },
  (t) => [index('game_notices_game_id_idx').on(t.gameId)],
)

// ---- Participation -------------------------------------------------------------------------

export const participations = pgTable(
  'participations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    /** `ParticipationStatus` value. */
    status: integer('status').notNull().default(0),
    /** `<teamId>:<base64 Ed25519 signature>`; also seeds the team's flag hashes. */
    token: text('token').notNull(),
    division: text('division'),
    writeupHash: varchar('writeup_hash', { length: 64 }),
    writeupTimeUtc: ts('writeup_time_utc'),
  },
  (t) => [
    uniqueIndex('participations_team_game_key').on(t.teamId, t.gameId),
    index('participations_game_id_idx').on(t.gameId),
  ],
)

/** Which user plays which game for which team: at most one team per user per game. */
export const userParticipations = pgTable(
  'user_participations',
  {
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    participationId: integer('participation_id')
      .notNull()
      .references(() => participations.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.userId] }),
    index('user_participations_participation_idx').on(t.participationId),
  ],
)

/** A team's state for one challenge: flag handed out, solved, attempts, container. */
export const gameInstances = pgTable(
  'game_instances',
  {
    challengeId: integer('challenge_id')
      .notNull()
      .references(() => challenges.id, { onDelete: 'cascade' }),
    participationId: integer('participation_id')
      .notNull()
      .references(() => participations.id, { onDelete: 'cascade' }),
    isSolved: boolean('is_solved').notNull().default(false),
    isLoaded: boolean('is_loaded').notNull().default(false),
    submissionCount: integer('submission_count').notNull().default(0),
    lastContainerOperation: ts('last_container_operation').notNull().default(EPOCH),
    flagId: integer('flag_id').references(() => flags.id, { onDelete: 'set null' }),
    /** The team's running container for this challenge. */
    containerId: uuid('container_id').references(() => containers.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.challengeId, t.participationId] }),
    index('game_instances_participation_idx').on(t.participationId),
    // The cheat check finds which team holds a dynamic flag.
    index('game_instances_flag_id_idx').on(t.flagId),
    uniqueIndex('game_instances_container_id_key').on(t.containerId),
  ],
)

// ---- Playing -----------------------------------------------------------------------------

export const submissions = pgTable(
  'submissions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** The trimmed answer as submitted. */
    answer: varchar('answer', { length: 127 }).notNull(),
    /** `AnswerResult` name: FlagSubmitted until judged. */
    status: varchar('status', { length: 16 })
      .$type<'FlagSubmitted' | 'Accepted' | 'WrongAnswer' | 'CheatDetected' | 'NotFound'>()
      .notNull(),
    submitTimeUtc: ts('submit_time_utc').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    participationId: integer('participation_id')
      .notNull()
      .references(() => participations.id, { onDelete: 'cascade' }),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    challengeId: integer('challenge_id')
      .notNull()
      .references(() => challenges.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('submissions_game_id_idx').on(t.gameId, t.id),
    index('submissions_status_idx').on(t.status),
    index('submissions_participation_challenge_idx').on(t.participationId, t.challengeId),
    // The flags still to judge, by challenge: the judge looks for earlier pending right answers
    // to a batch's challenges. Without it PostgreSQL read the whole (participation, challenge)
    // index for them, a cost that grew with the number of teams.
    index('submissions_pending_idx').on(t.challengeId).where(sql`${t.status} = 'FlagSubmitted'`),
  ],
)

/** Monitor-only event log of a game. */
export const gameEvents = pgTable(
  'game_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    /** `EventType` value. */
    type: smallint('type').notNull(),
    values: jsonb('values').$type<string[]>().notNull(),
    publishTimeUtc: ts('publish_time_utc').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    teamId: integer('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  },
  (t) => [index('game_events_game_id_idx').on(t.gameId, t.id)],
)

/** A wrong answer that was another team's flag. */
export const cheatInfo = pgTable(
  'cheat_info',
  {
    submissionId: integer('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    /** The participation that submitted. */
    submitParticipationId: integer('submit_participation_id')
      .notNull()
      .references(() => participations.id, { onDelete: 'cascade' }),
    /** The participation whose flag it was. */
    sourceParticipationId: integer('source_participation_id')
      .notNull()
      .references(() => participations.id, { onDelete: 'cascade' }),
  },
  (t) => [index('cheat_info_game_id_idx').on(t.gameId)],
)

// ---- Our additions: webhooks and sign-in with an identity provider -------------------------

/** An endpoint organisers' chat tools listen on; deliveries are signed with `secret`. */
export const webhooks = pgTable('webhooks', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  url: text('url').notNull(),
  /** `json`, `discord` or `slack`: the body's shape. */
  format: varchar('format', { length: 16 }).notNull().default('json'),
  secret: text('secret').notNull(),
  /** Event names this endpoint wants (`FirstBlood`, `NewNotice`, `GameStarted`, …). */
  events: jsonb('events').$type<string[]>().notNull().default([]),
  /** Only this game's events; null, every game's. */
  gameId: integer('game_id').references(() => games.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/** One event for one endpoint: retried with backoff until delivered or given up. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: varchar('event', { length: 32 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** `pending`, `delivered` or `failed` (gave up). */
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastResponse: text('last_response'),
    createdAt: ts('created_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id),
  ],
)

/** An OpenID Connect provider users may sign in with. */
export const identityProviders = pgTable(
  'identity_providers',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Short name in URLs (`/api/ext/oidc/{slug}/…`). */
    slug: varchar('slug', { length: 32 }).notNull(),
    displayName: text('display_name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    userNameClaim: varchar('user_name_claim', { length: 64 }).notNull().default('preferred_username'),
    emailClaim: varchar('email_claim', { length: 64 }).notNull().default('email'),
    allowSignUp: boolean('allow_sign_up').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [uniqueIndex('identity_providers_slug_key').on(t.slug)],
)

/** A user's account at a provider (`sub`), linked to one of ours. */
export const userIdentities = pgTable(
  'user_identities',
  {
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkedAt: ts('linked_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.providerId, t.subject] }),
    uniqueIndex('user_identities_user_provider_key').on(t.userId, t.providerId),
  ],
)
