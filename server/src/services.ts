import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config/index.ts'
import type { Db } from './db/index.ts'
import type { Clock } from './infra/clock/index.ts'
import type { Infra } from './infra/index.ts'
import { createOidcClient } from './infra/oidc/index.ts'
import { createAccountService } from './modules/account/account.service.ts'
import { firstAdminFile } from './modules/account/first-admin.ts'
import { createLoginThrottle } from './modules/account/login-throttle.ts'
import { createSessionService } from './modules/account/sessions.service.ts'
import { createTokenService } from './modules/account/tokens.service.ts'
import { createAdminUserService } from './modules/admin/users.service.ts'
import { createBlobService } from './modules/assets/blobs.service.ts'
import { createCaptureService } from './modules/captures/captures.service.ts'
import { createContainerCheck } from './modules/containers/container-check.ts'
import { createContainerRuntime } from './modules/containers/container-runtime.ts'
import { createContainerService } from './modules/containers/containers.service.ts'
import { createPlayContext } from './modules/contest/context.ts'
import { createEditChallengeService } from './modules/edit/challenges.service.ts'
import { createEditGameService } from './modules/edit/games.service.ts'
import { createNoticeService } from './modules/edit/notices.service.ts'
import { createFreezeService } from './modules/freeze/freeze.service.ts'
import { createRedisBoardShare } from './modules/game/board-share.ts'
import { createGameService } from './modules/game/games.service.ts'
import { createJudge } from './modules/game/judge.service.ts'
import { createMonitorService } from './modules/game/monitor.service.ts'
import { createParticipationService } from './modules/game/participations.service.ts'
import { createPlayService } from './modules/game/play.service.ts'
import { createReleaseService } from './modules/game/release.service.ts'
import { createScoreboardService } from './modules/game/scoreboard.service.ts'
import { createVerdictMemo } from './modules/game/verdicts.ts'
import { createWriteupService } from './modules/game/writeups.service.ts'
import { createCaptchaService } from './modules/info/captcha.service.ts'
import { createAuditService } from './modules/logs/audit.service.ts'
import { createOidcService } from './modules/oidc/oidc.service.ts'
import type { Metrics } from './modules/ops/metrics.ts'
import { createPostService } from './modules/posts/posts.service.ts'
import { createRedisSlots } from './modules/proxy/connection-slots.ts'
import { createProxyService } from './modules/proxy/proxy.service.ts'
import { createSettingsService } from './modules/settings/settings.service.ts'
import { createTeamService } from './modules/team/team.service.ts'
import { createApiTokenService } from './modules/tokens/tokens.service.ts'
import { createTransferService } from './modules/transfer/transfer.service.ts'
import { createWebhookQueue, type WebhookTimings } from './modules/webhooks/webhook-queue.ts'
import { createWebhookService } from './modules/webhooks/webhooks.service.ts'

/** Builds every service with exactly the dependencies it names. */
export function createServices(deps: {
  config: Config
  db: Db
  infra: Infra
  log: FastifyBaseLogger
  /** Shorter webhook retries and timeouts (tests). */
  webhookTimings?: Partial<WebhookTimings>
  /** Hears judgements and rebuilds for `/metrics`. */
  metrics?: Metrics
  /** The time game rules and timed jobs go by. */
  clock: Clock
}) {
  const { config, db, infra, log, metrics, clock } = deps
  const { bus } = infra
  const settings = createSettingsService({ db, bus })
  // Bloods and notices reach webhooks through the bus (`game.notice`); containers call it directly.
  const webhookAllowed = new Set(config.webhookAllowedHosts)
  const webhookQueue = createWebhookQueue({
    db,
    settings,
    log,
    bus,
    timings: deps.webhookTimings,
    allowedHosts: webhookAllowed,
  })
  const audit = createAuditService({ db, log, bus })
  const sessions = createSessionService({ db, bus })
  const tokens = createTokenService({ db })
  const blobs = createBlobService({ db, storage: infra.storage })
  const captcha = createCaptchaService({ config: config.captcha, cache: infra.cache, settings })
  const firstAdmin = firstAdminFile(config.dataDir)
  const account = createAccountService({
    db,
    settings,
    sessions,
    tokens,
    blobs,
    captcha,
    mailer: infra.mailer,
    audit,
    throttle: createLoginThrottle({ cache: infra.cache, now: clock.now }),
    onPasswordChanged: firstAdmin.forget,
  })
  const posts = createPostService({ db })
  // Our additions, each off until an admin turns it on.
  const freezeOn = () => settings.isOn('freeze')
  const scheduled = () => settings.isOn('scheduledRelease')
  const notices = createNoticeService({ db, clock, bus, freezeOn })
  const scoreboard = createScoreboardService({
    db,
    clock,
    bus,
    freezeOn,
    scheduled,
    observe: metrics?.rebuilt,
    // Several servers: each board is rendered by one of them after solves (issue 28).
    share: infra.redis ? createRedisBoardShare(infra.redis, bus) : undefined,
  })
  const playContext = createPlayContext({ db, clock })
  const verdicts = createVerdictMemo()
  // Every server keeps these in memory, so what changes them travels on the bus: with Redis the
  // other servers hear it too, and here the subscribers act on it at once, as they did alone.
  bus.subscribe('cache.forget', (m) => {
    if (m.what === 'game' && m.edited) {
      // A game's own settings (hidden, times, blood bonus) changed: drop its board at once, so
      // hiding a game takes effect on the next read rather than after a rebuild.
      scoreboard.forget(m.gameId)
      playContext.forgetGame(m.gameId)
      verdicts.forgetGame(m.gameId)
    } else if (m.what === 'game') {
      // Anything organisers or teams change in a game: rebuild its board, forget cached
      // lookups (a deleted challenge or team takes its submissions along).
      scoreboard.invalidate(m.gameId)
      playContext.forgetGame(m.gameId)
      verdicts.forgetGame(m.gameId)
    } else if (m.what === 'membership') {
      // Members or teams went away: cached registrations and boards must be re-read.
      playContext.forgetAll()
      scoreboard.invalidateAll()
      verdicts.forgetAll()
    } else if (m.what === 'container') {
      proxy.containerRemoved(m.containerId)
    }
  })
  bus.subscribe('board.solve', (m) => scoreboard.addSolve(m.gameId, m.solve, m.acceptedCount))
  bus.subscribe('board.rendered', (m) => void scoreboard.adopt(m))
  bus.subscribe('submission.verdict', (v) =>
    verdicts.remember(v.submissionId, {
      userId: v.userId,
      gameId: v.gameId,
      challengeId: v.challengeId,
      status: v.status,
    }),
  )
  const changed = (gameId: number) => bus.publish('cache.forget', { what: 'game', gameId, edited: false })
  const participations = createParticipationService({ db, onChanged: changed })
  const judge = createJudge({
    db,
    clock,
    bus,
    severalServers: Boolean(infra.redis),
    // PGlite runs in this process on its one connection: while a batch's transaction runs,
    // nothing else (submissions, session reads) can, so its batches stay short.
    batchSize: config.databaseUrl ? 256 : 32,
    // Solves reach every server's board through the bus.
    scoreboard: {
      addSolve: (gameId, solve, acceptedCount) =>
        bus.publish('board.solve', { gameId, solve, acceptedCount }),
    },
    notices,
    log,
    audit,
    observe: metrics?.verdict,
    onVerdict: (v) =>
      bus.publish('submission.verdict', {
        submissionId: v.submissionId,
        userId: v.userId,
        gameId: v.gameId,
        challengeId: v.challengeId,
        status: v.result,
      }),
  })
  const games = createGameService({ db, clock, participations, onChanged: changed })
  const membershipChanged = () => bus.publish('cache.forget', { what: 'membership' })
  const teams = createTeamService({
    db,
    clock,
    blobs,
    onMembershipChanged: membershipChanged,
    removeContainers: (teamId) => containers.removeAllOf({ teamId }),
  })
  const adminUsers = createAdminUserService({
    db,
    sessions,
    blobs,
    audit,
    onMembershipChanged: membershipChanged,
    onPasswordChanged: firstAdmin.forget,
  })
  const monitor = createMonitorService({ db, clock, scoreboard })
  const writeups = createWriteupService({ db, blobs, clock })
  const containerRuntime = createContainerRuntime({
    db,
    clock,
    backend: infra.containers,
    config: config.containers,
    settings,
    log,
    onRemoved: (containerId) => bus.publish('cache.forget', { what: 'container', containerId }),
    onFailed: (failure) => webhookQueue.containerFailed(failure),
  })
  const containers = createContainerService({
    db,
    clock,
    runtime: containerRuntime,
    context: playContext,
    settings,
    audit,
    bus,
  })
  const containerCheck = createContainerCheck({
    db,
    runtime: containerRuntime,
    config: config.containers.check,
    audit,
  })
  const captureRoot = path.join(config.dataDir, 'files', 'capture')
  const captures = createCaptureService({ db, root: captureRoot, log })
  const proxy = createProxyService({
    db,
    backend: infra.containers,
    config: config.containers,
    log,
    captureRoot,
    // Several servers: the per-container connection limit holds across them.
    slots: infra.redis ? createRedisSlots(infra.redis) : undefined,
  })
  const play = createPlayService({
    db,
    clock,
    context: playContext,
    enqueue: (id) => judge.enqueue(id),
    verdicts,
    scheduled,
  })
  const editGames = createEditGameService({
    db,
    clock,
    blobs,
    removeContainers: (gameId) => containers.removeAllOf({ gameId }),
    onChanged: (gameId) => bus.publish('cache.forget', { what: 'game', gameId, edited: true }),
  })
  const editChallenges = createEditChallengeService({
    db,
    clock,
    blobs,
    notices,
    testContainer: containers.testContainer,
    removeContainers: (challengeId) => containers.removeAllOf({ challengeId }),
    onChanged: changed,
    scheduled,
  })
  const release = createReleaseService({ db, clock, bus, scheduled, onReleased: changed })
  const transfer = createTransferService({
    db,
    storage: infra.storage,
    recountAccepted: (gameId) => editChallenges.recountAccepted(gameId),
    onChanged: changed,
  })
  return {
    settings,
    audit,
    sessions,
    tokens,
    blobs,
    captcha,
    account,
    firstAdmin,
    posts,
    notices,
    editGames,
    freeze: createFreezeService({ db, clock, scoreboard, notices, freezeOn }),
    editChallenges,
    release,
    participations,
    scoreboard,
    playContext,
    judge,
    games,
    play,
    monitor,
    writeups,
    teams,
    adminUsers,
    containerRuntime,
    containers,
    containerCheck,
    proxy,
    captures,
    apiTokens: createApiTokenService({ db }),
    oidc: createOidcService({
      db,
      cache: infra.cache,
      client: createOidcClient(),
      settings,
      sessions,
      audit,
    }),
    transfer,
    webhooks: createWebhookService({ db, allowedHosts: webhookAllowed }),
    webhookQueue,
  }
}
export type Services = ReturnType<typeof createServices>
