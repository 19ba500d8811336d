// The parts of oidc-provider (a test-only dependency that ships no types) the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface Interaction {
    uid: string
    params: Record<string, unknown>
  }
  interface Account {
    accountId: string
    claims(): Promise<Record<string, unknown>>
  }
  class Grant {
    constructor(opts: { accountId: string; clientId: string })
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    Grant: typeof Grant
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      opts?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    on(event: string, listener: (...args: unknown[]) => void): this
  }
  export type { Account, Interaction }
}
