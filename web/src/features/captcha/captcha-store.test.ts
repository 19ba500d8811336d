import { describe, expect, it, vi } from 'vitest'
import { createCaptchaStore } from './captcha-store'

describe(createCaptchaStore, () => {
  it('hands out an answer that is already there', async () => {
    const sut = createCaptchaStore()
    sut.set('abc')
    await expect(sut.take()).resolves.toBe('abc')
  })

  it('makes a submit wait until the field finds the answer', async () => {
    const sut = createCaptchaStore()
    const taken = sut.take()
    sut.set('late')
    await expect(taken).resolves.toBe('late')
  })

  it('marks the answer spent when a form takes it', async () => {
    const sut = createCaptchaStore()
    const onSpend = vi.fn()
    sut.set('abc', onSpend)
    expect(onSpend).not.toHaveBeenCalled()
    await sut.take()
    expect(onSpend).toHaveBeenCalledOnce()
  })

  it('fails waiting submits when the field cannot answer', async () => {
    const sut = createCaptchaStore()
    const taken = sut.take()
    sut.fail(new Error('no challenge'))
    await expect(taken).rejects.toThrow('no challenge')
  })

  it('asks the field for a new answer after a renewal', async () => {
    const sut = createCaptchaStore()
    const listener = vi.fn()
    sut.subscribe(listener)
    sut.set('first')
    sut.renew()
    expect(sut.generation()).toBe(1)
    expect(listener).toHaveBeenCalledOnce()
    const taken = sut.take()
    sut.set('second')
    await expect(taken).resolves.toBe('second')
  })
})
