import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'

// The monitor's Traffic screen: challenges with capture on → teams with captures → files, with
// download links and deletion. Captures are made by the platform proxy (server tests cover that
// path end to end); here one is put where the server keeps them, as the proxy would leave it.

/** A pcap file: the global header and one 4-byte frame, 44 bytes. */
function pcap(): Buffer {
  const b = Buffer.alloc(24 + 16 + 4)
  b.writeUInt32LE(0xa1b2c3d4, 0)
  b.writeUInt16LE(2, 4)
  b.writeUInt16LE(4, 6)
  b.writeUInt32LE(262_144, 16)
  b.writeUInt32LE(1, 20)
  b.writeUInt32LE(4, 32)
  b.writeUInt32LE(4, 36)
  b.write('ping', 40)
  return b
}

test('a monitor browses, downloads and deletes captured traffic', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  const now = Date.now()
  const game = await adminApi.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title: `Traffic ${uniqueName('g')}`,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await adminApi.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
  const title = `Wire ${uniqueName('c')}`
  const c = await adminApi.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
    title,
    category: 'Pwn',
    type: 'DynamicContainer',
  })
  await adminApi.put(`/api/edit/games/${game.id}/challenges/${c.id}`, {
    isEnabled: true,
    enableTrafficCapture: true,
  })

  const { baseUrl, adminPassword, dataDir } = harnessEnv()
  const playerContext = await browser.newContext({ baseURL: baseUrl })
  const player = new ApiClient(playerContext.request)
  const user = uniqueName('wire')
  await player.post('/api/account/register', {
    userName: user,
    password: 'Passw0rd!',
    email: `${user}@e2e.test`,
  })
  const teamName = `Team ${user}`
  const team = await player.post<{ id: number }>('/api/team', { name: teamName, bio: 'e2e' })
  await player.post(`/api/game/${game.id}`, { teamId: team.id })
  const [part] = await adminApi.get<{ id: number; team: { id: number } }[]>(
    `/api/game/${game.id}/participations`,
  )
  const dir = path.join(dataDir, 'files', 'capture', String(c.id), String(part!.id))
  await mkdir(dir, { recursive: true })
  const fileName = '0123abcd-e2e1.pcap'
  await writeFile(path.join(dir, fileName), pcap())
  await writeFile(path.join(dir, '0123abcd-e2e2.pcap'), pcap())

  const context = await browser.newContext({ baseURL: baseUrl })
  await new ApiClient(context.request).signIn('Admin', adminPassword)
  const page = await context.newPage()
  await page.goto(`/games/${game.id}/monitor/traffic`)
  await expect(page.getByRole('heading', { name: 'Traffic', exact: true })).toBeVisible()

  await page.getByRole('button', { name: new RegExp(title) }).click()
  await expect(page.getByRole('button', { name: new RegExp(title) })).toContainText('Teams: 1')
  await page.getByRole('button', { name: new RegExp(teamName) }).click()
  const files = page.getByRole('region', { name: 'Capture files' })
  await expect(files.getByRole('row')).toHaveCount(3)
  await expect(files).toContainText('Total 88 B')
  await expect(files.getByRole('row', { name: new RegExp(fileName) })).toContainText('44 B')
  await expect(files.getByRole('link', { name: `Download ${fileName}` })).toHaveAttribute(
    'href',
    `/api/game/captures/${c.id}/${part!.id}/${fileName}`,
  )
  await expect(files.getByRole('link', { name: 'Download all' })).toHaveAttribute(
    'href',
    `/api/game/captures/${c.id}/${part!.id}/all`,
  )
  // The link downloads the very file.
  const download = await context.request.get(`/api/game/captures/${c.id}/${part!.id}/${fileName}`)
  expect(Buffer.from(await download.body()).equals(pcap())).toBe(true)

  await files.getByRole('button', { name: `Delete ${fileName}` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(files.getByRole('row')).toHaveCount(2)
  await files.getByRole('button', { name: 'Delete all' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('region', { name: 'Teams' })).toContainText('No team has captured traffic')
})
