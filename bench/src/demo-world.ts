/**
 * A small running world for page measurements (the Lighthouse audit, the first-load bytes): a
 * server on its embedded defaults gets three posts, a running game of 12 challenges and a
 * player who joined it and solved one.
 */

/** A tiny cookie-keeping JSON client, as a browser tab would be. */
export class Client {
  cookies = new Map<string, string>()
  constructor(readonly base: string) {}
  async call(method: string, url: string, body?: unknown) {
    const res = await fetch(this.base + url, {
      method,
      headers: {
        'content-type': 'application/json',
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': this.cookies.get('XSRF-TOKEN') ?? '',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
}

/** A running game with posts, challenges and a player who has solved one. */
export async function setUp(base: string, adminPassword: string) {
  const admin = new Client(base)
  await admin.call('GET', '/api/config')
  await admin.call('POST', '/api/account/login', { userName: 'Admin', password: adminPassword })
  for (let i = 1; i <= 3; i++)
    await admin.call('POST', '/api/edit/posts', {
      title: `News ${i}`,
      summary: 'The **spring** contest opens on Friday; read the rules first.',
      content: '# Rules\n\nBe nice.',
      tags: ['news'],
    })
  const game = await admin.call('POST', '/api/edit/games', {
    title: 'Spring CTF',
    start: Date.now() - 3600_000,
    end: Date.now() + 7 * 86_400_000,
    summary: 'A week of puzzles',
    acceptWithoutReview: true,
  })
  const categories = ['Web', 'Crypto', 'Pwn', 'Misc', 'Reverse', 'Forensics']
  for (let i = 0; i < 12; i++) {
    const c = await admin.call('POST', `/api/edit/games/${game.id}/challenges`, {
      title: `Challenge ${i + 1}`,
      category: categories[i % categories.length],
    })
    await admin.call('POST', `/api/edit/games/${game.id}/challenges/${c.id}/flags`, [{ flag: `flag{${i}}` }])
    await admin.call('PUT', `/api/edit/games/${game.id}/challenges/${c.id}`, {
      isEnabled: true,
      content: 'Find it.',
    })
  }
  const player = new Client(base)
  await player.call('GET', '/api/config')
  await player.call('POST', '/api/account/register', {
    userName: 'player1',
    email: 'player1@example.org',
    password: 'Passw0rd!',
  })
  const team = await player.call('POST', '/api/team', { name: 'Night Owls' })
  await player.call('POST', `/api/game/${game.id}`, { teamId: team.id })
  const details = await player.call('GET', `/api/game/${game.id}/details`)
  const first = Object.values(details.challenges as Record<string, { id: number }[]>)[0]![0]!
  await player.call('POST', `/api/game/${game.id}/challenges/${first.id}`, { flag: 'flag{0}' })
  return { gameId: game.id as number, player }
}
