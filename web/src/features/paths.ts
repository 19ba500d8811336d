/** Every client path once (seed section 2), with builders for the parameterised ones. */
type Id = number | string

export const paths = {
  home: '/',
  about: '/about',
  teams: '/teams',
  posts: '/posts',
  post: (postId: Id) => `/posts/${postId}`,
  postEdit: (postId: Id) => `/posts/${postId}/edit`,
  games: '/games',
  game: (id: Id) => `/games/${id}`,
  challenges: (id: Id) => `/games/${id}/challenges`,
  scoreboard: (id: Id) => `/games/${id}/scoreboard`,
  /** Our addition: the scoreboard for a projector (full screen, no frame). */
  bigscreen: (id: Id) => `/games/${id}/bigscreen`,
  monitor: (id: Id, tab: 'events' | 'submissions' | 'cheatinfo' | 'traffic' = 'events') =>
    `/games/${id}/monitor/${tab}`,
  account: {
    login: '/account/login',
    register: '/account/register',
    recovery: '/account/recovery',
    reset: '/account/reset',
    verify: '/account/verify',
    confirm: '/account/confirm',
    profile: '/account/profile',
  },
  admin: {
    root: '/admin',
    games: '/admin/games',
    game: (id: Id, tab: 'info' | 'notices' | 'challenges' | 'review' | 'writeups' = 'info') =>
      `/admin/games/${id}/${tab}`,
    challenge: (id: Id, chalId: Id) => `/admin/games/${id}/challenges/${chalId}`,
    flags: (id: Id, chalId: Id) => `/admin/games/${id}/challenges/${chalId}/flags`,
    teams: '/admin/teams',
    users: '/admin/users',
    instances: '/admin/instances',
    logs: '/admin/logs',
    files: '/admin/files',
    settings: '/admin/settings',
    tokens: '/admin/tokens',
    identityProviders: '/admin/identity-providers',
    webhooks: '/admin/webhooks',
  },
  notFound: '/404',
} as const

/** `/account/login?from=…` that brings the user back after signing in. */
export function loginHref(from: string): string {
  return `${paths.account.login}?from=${encodeURIComponent(from)}`
}
