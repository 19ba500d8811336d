import type { BuildInfo } from '@/utils/build-info'

/** The repository as an https address, or null when it is not one (then nothing links to it). */
export function repoUrl(info: Pick<BuildInfo, 'repo'>): string | null {
  try {
    const url = new URL(info.repo)
    return url.protocol === 'https:' ? url.href.replace(/\/$/, '') : null
  } catch {
    return null
  }
}

/** Where the commit can be seen (GitHub, GitLab and Gitea all use `/commit/<sha>`). */
export function commitUrl(info: Pick<BuildInfo, 'repo' | 'sha'>): string | null {
  const repo = repoUrl(info)
  return repo && /^[0-9a-f]{40}$/.test(info.sha) ? `${repo}/commit/${info.sha}` : null
}

/** The version to show: the tag without a leading "v"; "develop" builds say so. */
export function versionOf(info: Pick<BuildInfo, 'rawTag'>): string {
  const tag = info.rawTag.split('-')[0] ?? ''
  return tag.startsWith('v') ? tag.slice(1) : tag
}
