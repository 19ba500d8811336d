/**
 * Which modules go into the one `core` chunk that every first load fetches: React, the router,
 * SWR, the API client, the Mantine pieces the account screens use, and the app's own frame.
 *
 * Left to itself the bundler cuts these into ~60 small shared chunks (everything the entry
 * shares with some page gets its own file), and ~60 files compress ~15 KB worse than one.
 * Only modules the first load needs anyway belong here: anything listed that only lazy pages
 * use becomes part of every first load. Pages' own components stay out.
 */
const CORE = new RegExp(
  [
    String.raw`node_modules[\\/](react|react-dom|scheduler|react-router|swr|openapi-fetch|use-sync-external-store|dequal|clsx|@mantine[\\/]hooks|@mantine[\\/]store)[\\/]`,
    String.raw`@mantine[\\/]core[\\/]esm[\\/]core[\\/]`,
    // Icons: the shared component factory, and the few the account screens show.
    String.raw`@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes|icons[\\/](IconLanguage|IconSelector|IconSun|IconMoon|IconUpload|IconArrowLeft|IconKey|IconLogout|IconCheck|IconX)\.mjs)`,
    String.raw`@mantine[\\/]core[\\/]esm[\\/]components[\\/](Box|Input|InputBase|Button|ActionIcon|UnstyledButton|Text|Title|Group|Stack|Paper|Center|Loader|PasswordInput|TextInput|CloseButton|Anchor|Transition|VisuallyHidden|Flex|Alert)[\\/]`,
    String.raw`web[\\/]src[\\/](api|i18n[\\/][a-z-]+\.ts|utils|theme|hooks|app[\\/](app|router|paths|lazy-page|lazy-toasts|error-screen|guards)\.tsx?|app[\\/]layouts[\\/](account-layout|brand)\.tsx)`,
    String.raw`web[\\/]src[\\/]components[\\/](confirm|coming-soon|color-scheme-toggle|language[\\/](language-select|use-language-choice))\.tsx`,
    String.raw`web[\\/]src[\\/]features[\\/](info|account)[\\/]api\.ts`,
  ].join('|'),
)

export const isCoreModule = (id: string) => CORE.test(id) && !id.endsWith('.css')
