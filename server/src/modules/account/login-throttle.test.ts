import { describe, expect, it } from 'vitest'
import { AppError } from '../../http/errors.ts'
import { createMemoryCache } from '../../infra/cache/memory.ts'
import { createLoginThrottle } from './login-throttle.ts'

function setup() {
  let clock = 1_000_000
  const sut = createLoginThrottle({ cache: createMemoryCache(), now: () => clock })
  return { sut, advance: (ms: number) => (clock += ms) }
}

const waitOf = async (attempt: Promise<void>) => {
  try {
    await attempt
    return 0
  } catch (err) {
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).httpStatus).toBe(429)
    return Number((err as AppError).headers?.['Retry-After'])
  }
}

describe(createLoginThrottle, () => {
  it('locks an address out of an account after 5 wrong passwords, twice as long each time', async () => {
    const { sut, advance } = setup()
    for (let i = 0; i < 4; i++) await sut.failed('u', '1.1.1.1')
    expect(await waitOf(sut.check('u', '1.1.1.1'))).toBe(0)
    await sut.failed('u', '1.1.1.1')
    expect(await waitOf(sut.check('u', '1.1.1.1'))).toBe(30)
    expect(await waitOf(sut.check('u', '2.2.2.2'))).toBe(0)
    advance(31_000)
    for (let i = 0; i < 5; i++) await sut.failed('u', '1.1.1.1')
    expect(await waitOf(sut.check('u', '1.1.1.1'))).toBe(60)
  })

  it('pauses an account guessed from many addresses, but not for an address that signed in before', async () => {
    const { sut, advance } = setup()
    await sut.succeeded('u', '10.0.0.1')
    for (let i = 0; i < 30; i++) await sut.failed('u', `203.0.113.${i}`)
    expect(await waitOf(sut.check('u', '198.51.100.7'))).toBe(60)
    expect(await waitOf(sut.check('u', '10.0.0.1'))).toBe(0)
    advance(61_000)
    expect(await waitOf(sut.check('u', '198.51.100.7'))).toBe(0)
  })

  it('forgets an address’s mistakes once it signs in', async () => {
    const { sut } = setup()
    for (let i = 0; i < 4; i++) await sut.failed('u', '1.1.1.1')
    await sut.succeeded('u', '1.1.1.1')
    await sut.failed('u', '1.1.1.1')
    expect(await waitOf(sut.check('u', '1.1.1.1'))).toBe(0)
  })
})
