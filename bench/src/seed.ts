import { createHash } from 'node:crypto'
import { newGameKeys } from '../../server/src/engine/keys.ts'

/**
 * The cookies a signed-in browser sends: the session, the XSRF token the bench echoes in its
 * header, and the signed-in hint (without it the server would set that cookie on every answer).
 */
export const sessionCookie = (token: string) =>
  `pennant_token=${token}; pennant_signed_in=1; XSRF-TOKEN=bench`

export interface Seeded {
  gameId: number
  teams: { teamId: number; participationId: number; token: string; unsolved: number[] }[]
  challengeIds: number[]
}

/** A node-postgres client or a PGlite database: both answer `query(text, params)` with rows. */
// biome-ignore lint/suspicious/noExplicitAny: rows are read by column name, as SQL returns them
export type Queryable = { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> }

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

/**
 * A running game with `teams` accepted teams (one player each, with a session), `challenges`
 * enabled static challenges (flag `flag{bench_<id>}`) and `solves` accepted solves spread over
 * the teams, written with set-based SQL so seeding 200 000 solves takes seconds.
 */
export async function seed(
  client: Queryable,
  opts: { teams: number; challenges: number; solves: number },
): Promise<Seeded> {
  const perTeam = Math.floor(opts.solves / opts.teams)
  if (perTeam > opts.challenges)
    throw new Error(`${opts.solves} solves need more than ${opts.teams} × ${opts.challenges}`)
  const keys = newGameKeys()
  const now = Date.now()
  await client.query('BEGIN')
  const game = await client.query(
    `insert into games (title, public_key, private_key, start_time_utc, end_time_utc, writeup_deadline, practice_mode)
     values ('Bench CTF', $1, $2, $3, $4, $4, false) returning id`,
    [keys.publicKey, keys.privateKey, new Date(now - 3600_000), new Date(now + 24 * 3600_000)],
  )
  const gameId = game.rows[0].id as number
  await client.query(
    `insert into users (id, user_name, normalized_user_name, email, normalized_email, email_confirmed, password_hash)
     select gen_random_uuid(), 'b' || i, 'b' || i, 'b' || i || '@bench.test', 'b' || i || '@bench.test', true, 'x'
     from generate_series(1, $1) i`,
    [opts.teams],
  )
  await client.query(
    `insert into teams (name, invite_token, captain_id)
     select 'Team ' || substr(u.user_name, 2), md5(u.user_name), u.id from users u where u.user_name like 'b%' order by u.user_name`,
  )
  await client.query(`insert into team_members (team_id, user_id) select id, captain_id from teams`)
  await client.query(
    `insert into participations (game_id, team_id, status, token) select $1, id, 1, id || ':bench' from teams`,
    [gameId],
  )
  await client.query(
    `insert into user_participations (game_id, user_id, team_id, participation_id)
     select $1, t.captain_id, t.id, p.id from teams t join participations p on p.team_id = t.id`,
    [gameId],
  )
  await client.query(
    `insert into challenges (game_id, title, category, is_enabled, original_score)
     select $1, 'Challenge ' || lpad(i::text, 3, '0'), i % 13, true, 500 from generate_series(1, $2) i`,
    [gameId, opts.challenges],
  )
  await client.query(
    `insert into flags (challenge_id, flag) select id, 'flag{bench_' || id || '}' from challenges where game_id = $1`,
    [gameId],
  )
  await client.query(
    `insert into game_instances (challenge_id, participation_id, is_loaded)
     select c.id, p.id, true from challenges c cross join participations p where c.game_id = $1 and p.game_id = $1`,
    [gameId],
  )
  // Team k has solved the `perTeam` challenges starting at k (mod the count): even coverage.
  await client.query(
    `with t as (select p.id pid, p.team_id, row_number() over (order by p.id) - 1 k, tm.captain_id uid
                from participations p join teams tm on tm.id = p.team_id where p.game_id = $1),
          c as (select id, row_number() over (order by id) - 1 n from challenges where game_id = $1),
          s as (select t.*, c.id cid from t join c on ((c.n - t.k) % $2 + $2) % $2 < $3)
     insert into submissions (answer, status, submit_time_utc, user_id, team_id, participation_id, game_id, challenge_id)
     select 'flag{bench_' || cid || '}', 'Accepted', now() - interval '50 minutes' + (random() * interval '40 minutes'),
            uid, team_id, pid, $1, cid from s`,
    [gameId, opts.challenges, perTeam],
  )
  await client.query(
    `update game_instances gi set is_solved = true from submissions s
     where s.game_id = $1 and s.challenge_id = gi.challenge_id and s.participation_id = gi.participation_id`,
    [gameId],
  )
  await client.query(
    `update challenges c set accepted_count = x.n, submission_count = x.n
     from (select challenge_id, count(*)::int n from submissions where game_id = $1 group by challenge_id) x where x.challenge_id = c.id`,
    [gameId],
  )
  // One session per player: the token is `bench-<team id>`, stored hashed as the server does.
  const teams = await client.query(
    `select t.id team_id, p.id participation_id, t.captain_id from teams t join participations p on p.team_id = t.id where p.game_id = $1 order by t.id`,
    [gameId],
  )
  const values: string[] = []
  const params: unknown[] = []
  teams.rows.forEach((row, i) => {
    values.push(`($${i * 2 + 1}, $${i * 2 + 2}, now(), now() + interval '7 days')`)
    params.push(sha256(`bench-${row.team_id}`), row.captain_id)
  })
  for (let i = 0; i < values.length; i += 5000) {
    const chunk = values.slice(i, i + 5000)
    const offset = i * 2
    await client.query(
      `insert into sessions (id, user_id, created_at, expires_at) values ${chunk.map((_, j) => `($${j * 2 + 1}, $${j * 2 + 2}, now(), now() + interval '7 days')`).join(',')}`,
      params.slice(offset, offset + chunk.length * 2),
    )
  }
  await client.query('COMMIT')

  const challengeIds = (
    await client.query('select id from challenges where game_id = $1 order by id', [gameId])
  ).rows.map((r) => r.id as number)
  const solved = await client.query(
    'select participation_id, challenge_id from submissions where game_id = $1',
    [gameId],
  )
  const byTeam = new Map<number, Set<number>>()
  for (const r of solved.rows) {
    const set = byTeam.get(r.participation_id) ?? new Set<number>()
    set.add(r.challenge_id)
    byTeam.set(r.participation_id, set)
  }
  return {
    gameId,
    challengeIds,
    teams: teams.rows.map((r) => ({
      teamId: r.team_id,
      participationId: r.participation_id,
      token: `bench-${r.team_id}`,
      unsolved: challengeIds.filter((id) => !byTeam.get(r.participation_id)?.has(id)),
    })),
  }
}
