import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminAgent, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

describe('/api/edit/posts', () => {
  it('publishes a post that everyone can read, with its author', async () => {
    const res = await admin.post('/api/edit/posts', {
      title: 'Finals',
      summary: 'Dates',
      content: '**Soon**',
      tags: ['news', 'news', ' '],
    })
    expect(res.json()).toMatch(/^[0-9a-f]{8}$/)
    const post = (await new Agent(t.app).get(`/api/posts/${res.json()}`)).json()
    expect(post).toMatchObject({
      title: 'Finals',
      summary: 'Dates',
      content: '**Soon**',
      tags: ['news'],
      isPinned: false,
      authorName: 'Admin',
    })
  })

  it('keeps the other fields when pinning, and pinning alone keeps the post’s time', async () => {
    const id = (
      await admin.post('/api/edit/posts', { title: 'Keep me', content: 'body', isPinned: true })
    ).json()
    const created = (await admin.get(`/api/posts/${id}`)).json()
    expect(created).toMatchObject({ title: 'Keep me', content: 'body', isPinned: true })
    const unpinned = await admin.put(`/api/edit/posts/${id}`, {
      title: 'Keep me',
      content: 'body',
      isPinned: false,
    })
    expect(unpinned.json()).toMatchObject({
      title: 'Keep me',
      content: 'body',
      isPinned: false,
      time: created.time,
    })
    const edited = await admin.put(`/api/edit/posts/${id}`, {
      title: 'Edited',
      content: 'new',
      isPinned: true,
    })
    expect(edited.json()).toMatchObject({ title: 'Edited', content: 'new', isPinned: true })
  })

  it('deletes posts and answers 404 for unknown ones', async () => {
    const id = (await admin.post('/api/edit/posts', { title: 'Gone' })).json()
    expect((await admin.delete(`/api/edit/posts/${id}`)).statusCode).toBe(200)
    expect((await admin.delete(`/api/edit/posts/${id}`)).json()).toEqual({
      title: 'Post not found',
      status: 404,
    })
    expect((await admin.put(`/api/edit/posts/${id}`, { title: 'x' })).statusCode).toBe(404)
  })

  it('validates input and is for admins only', async () => {
    expect((await admin.post('/api/edit/posts', { title: '' })).statusCode).toBe(400)
    expect((await admin.post('/api/edit/posts', { title: 'x'.repeat(51) })).statusCode).toBe(400)
    expect((await admin.put('/api/edit/posts/not-hex!', { title: 'x' })).statusCode).toBe(400)
    const { agent } = await registeredUser(t.app)
    expect((await agent.post('/api/edit/posts', { title: 'x' })).statusCode).toBe(403)
    expect((await new Agent(t.app).post('/api/edit/posts', { title: 'x' })).statusCode).toBe(401)
  })
})
