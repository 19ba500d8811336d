import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config/index.ts'
import type { Db } from './db/index.ts'
import type { Infra } from './infra/index.ts'
import { createAccountService } from './modules/account/account.service.ts'
import { createLoginThrottle } from './modules/account/login-throttle.ts'
import { createSessionService } from './modules/account/sessions.service.ts'
import { createTokenService } from './modules/account/tokens.service.ts'
import { createAdminUserService } from './modules/admin/users.service.ts'
import { createBlobService } from './modules/assets/blobs.service.ts'
import { createCaptureService } from './modules/captures/captures.service.ts'
import { createContainerRuntime } from './modules/containers/container-runtime.ts'
import { createContainerService } from './modules/containers/containers.service.ts'
import { createEditChallengeService } from './modules/edit/challenges.service.ts'
import { createEditGameService } from './modules/edit/games.service.ts'
import { createNoticeService } from './modules/edit/notices.service.ts'
import { createPlayContext } from './modules/game/context.ts'
import { createGameService } from './modules/game/games.service.ts'
import { createJudge } from './modules/game/judge.service.ts'
import { createMonitorService } from './modules/game/monitor.service.ts'
import { createParticipationService } from './modules/game/participations.service.ts'
import { createPlayService } from './modules/game/play.service.ts'
import { createScoreboardService } from './modules/game/scoreboard.service.ts'
import { createVerdictMemo } from './modules/game/verdicts.ts'
import { createWriteupService } from './modules/game/writeups.service.ts'
import { createCaptchaService } from './modules/info/captcha.service.ts'
import { createAuditService } from './modules/logs/audit.service.ts'
import type { Metrics } from './modules/ops/metrics.ts'
import { createPostService } from './modules/posts/posts.service.ts'
import { createProxyService } from './modules/proxy/proxy.service.ts'
import { createSettingsService } from './modules/settings/settings.service.ts'
import { createTeamService } from './modules/team/team.service.ts'
import { createApiTokenService } from './modules/tokens/tokens.service.ts'

/** Builds every service with exactly the dependencies it names. */
export function createServices(deps: {
  config: Config
  db: Db
  infra: Infra
  log: FastifyBaseLogger
  /** Hears judgements and rebuilds for `/metrics`. */
  metrics?: Metrics
}) {
  const { config, db, infra, log, metrics } = deps
  const settings = createSettingsService({ db })
  const { bus } = infra
  const audit = createAuditService({ db, log, bus })
  const sessions = createSessionService({ db })
  const tokens = createTokenService({ db })
  const blobs = createBlobService({ db, storage: infra.storage })
  const captcha = createCaptchaService({ config: config.captcha, cache: infra.cache, settings })
  const account = createAccountService({
    db,
    settings,
    sessions,
    tokens,
    blobs,
    captcha,
    mailer: infra.mailer,
    audit,
    throttle: createLoginThrottle({ cache: infra.cache }),
  })
  const posts = createPostService({ db })
  const notices = createNoticeService({ db, bus })
  const scoreboard = createScoreboardService({ db, bus, observe: metrics?.rebuilt })
  const playContext = createPlayContext({ db })
  const verdicts = createVerdictMemo()
  // Anything organisers or teams change in a game: rebuild its board, forget cached lookups
  // (a deleted challenge or team takes its submissions along).
  const changed = (gameId: number) => {
    scoreboard.invalidate(gameId)
    playContext.forgetGame(gameId)
    verdicts.forgetGame(gameId)
  }
  const participations = createParticipationService({ db, onChanged: changed })
  const judge = createJudge({
    db,
    bus,
    // PGlite runs in this process on its one connection: while a batch's transaction runs,
    // nothing else (submissions, session reads) can, so its batches stay short.
    batchSize: config.databaseUrl ? 256 : 32,
    scoreboard,
    notices,
    log,
    audit,
    observe: metrics?.verdict,
    onVerdict: (v) =>
      verdicts.remember(v.submissionId, {
        userId: v.userId,
        gameId: v.gameId,
        challengeId: v.challengeId,
        status: v.result,
      }),
  })
  const games = createGameService({ db, participations, onChanged: changed })
  // Members or teams went away: cached registrations and boards must be re-read.
  const membershipChanged = () => {
    playContext.forgetAll()
    scoreboard.invalidateAll()
    verdicts.forgetAll()
  }
  const teams = createTeamService({
    db,
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
  })
  const monitor = createMonitorService({ db, scoreboard })
  const writeups = createWriteupService({ db, blobs })
  const containerRuntime = createContainerRuntime({
    db,
    backend: infra.containers,
    config: config.containers,
    settings,
    log,
    onRemoved: (id) => proxy.containerRemoved(id),
  })
  const containers = createContainerService({
    db,
    runtime: containerRuntime,
    context: playContext,
    settings,
    audit,
    bus,
  })
  const captures = createCaptureService({ db, root: path.join(config.dataDir, 'files', 'capture'), log })
  const proxy = createProxyService({
    db,
    backend: infra.containers,
    config: config.containers,
    log,
    recorder: captures.record,
  })
  const play = createPlayService({ db, context: playContext, enqueue: (id) => judge.enqueue(id), verdicts })
  // A game's own settings (hidden, times, blood bonus) changed: drop its board at once, so
  // hiding a game takes effect on the next read rather than after a rebuild.
  const editGames = createEditGameService({
    db,
    blobs,
    removeContainers: (gameId) => containers.removeAllOf({ gameId }),
    onChanged: (gameId) => {
      scoreboard.forget(gameId)
      playContext.forgetGame(gameId)
      verdicts.forgetGame(gameId)
    },
  })
  const editChallenges = createEditChallengeService({
    db,
    blobs,
    notices,
    testContainer: containers.testContainer,
    removeContainers: (challengeId) => containers.removeAllOf({ challengeId }),
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
    posts,
    notices,
    editGames,
    editChallenges,
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
    proxy,
    captures,
    apiTokens: createApiTokenService({ db }),
  }
}
export type Services = ReturnType<typeof createServices>
