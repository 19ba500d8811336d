/**
 * The error catalogue: each error once, with its HTTP status and English title (and, at its
 * end, the few success messages with a title, so they are translated the same way).
 * Keys follow upstream's message-resource names so logs and tests speak the contract's language.
 * Services throw `fail(key)`; the error handler turns it into `{title, status}`.
 */
const catalogue = {
  // Framework-level
  Model_ValidationFailed: [400, 'The request is not valid'],
  Request_TooLarge: [413, 'The request body is too large'],
  Request_UnsupportedMediaType: [415, 'This content type is not supported here'],
  Route_NotFound: [404, 'There is no such API route'],
  Route_MethodNotAllowed: [405, 'This method is not allowed on this route'],
  Server_Error: [500, 'Something went wrong on our side; the error has been logged'],
  Server_Unavailable: [503, 'The server is briefly unavailable; try again in a few seconds'],
  RateLimit_TooManyRequests: [429, 'Too many requests; try again in {0} s'],
  Auth_LoginRequired: [401, 'Please log in first'],
  Auth_AccessForbidden: [403, 'You are not allowed to do this'],
  Auth_XsrfInvalid: [403, 'Missing or invalid XSRF token; reload the page and try again'],
  // Account
  Account_RegisterNotEnabled: [400, 'Registration is closed'],
  Account_TokenValidationFailed: [400, 'The captcha answer is wrong or expired'],
  Account_AvailableEmailDomain: [400, 'Only e-mail addresses at these domains may register: {0}'],
  Account_UserExisting: [400, 'An account with this e-mail address already exists'],
  Account_UserNameUsed: [400, 'This user name is taken'],
  Account_EmailUsed: [400, 'This e-mail address is already in use'],
  Account_PasswordWeak: [
    400,
    'The password needs at least 6 characters, with a digit, a lowercase letter and an uppercase letter',
  ],
  Account_EmailSendFailed: [400, 'The e-mail could not be sent; please try again later'],
  Account_MailNotConfigured: [400, 'This server has no mail service configured; ask an administrator'],
  Account_LinkHostUntrusted: [
    400,
    'This request came through a proxy the server does not trust; ask an administrator to set PUBLIC_URL or TRUST_PROXY',
  ],
  Account_IncorrectUserNameOrPassword: [401, 'Incorrect user name or password'],
  Account_TooManyAttempts: [429, 'Too many wrong passwords for this account; try again in {0} s'],
  Account_UserDisabled: [401, 'This account is disabled'],
  Account_EmailNotConfirmedForLogin: [401, 'Confirm your e-mail address first, using the link we mailed you'],
  Account_UserNotExist: [404, 'No account uses this e-mail address'],
  Account_EmailNotConfirmed: [404, 'The e-mail address of this account is not confirmed'],
  Account_ResetPasswordFromAdmin: [400, 'Password reset by e-mail is off; ask an administrator'],
  Account_ChangeEmailFromAdmin: [400, 'E-mail change is off; ask an administrator'],
  Account_InvalidEmail: [400, 'The link is invalid or has expired'],
  Account_InvalidToken: [400, 'The link is invalid or has expired'],
  Account_EmailVerificationFailed: [401, 'The confirmation link is invalid or has expired'],
  Account_WrongPassword: [400, 'The current password is wrong'],
  Account_UserUpdateFailed: [400, 'The profile could not be saved'],
  Model_PasswordRequired: [400, 'A password is required'],
  Model_OldPasswordRequired: [400, 'The current password is required'],
  Model_NewPasswordRequired: [400, 'A new password is required'],
  // Files
  File_SizeZero: [400, 'The file is empty'],
  File_SizeTooLarge: [400, 'The file is too large'],
  File_Malformed: [400, 'The uploaded form is malformed'],
  File_Missing: [400, 'Attach the file in the form field "file"'],
  File_NotFound: [404, 'File not found'],
  Assets_IOError: [400, 'The file could not be stored; try again'],
  Avatar_UpdateFailed: [400, 'The image could not be read; use PNG, GIF, JPEG, WebP, AVIF or HEIC'],
  // Teams
  Team_NotFound: [404, 'Team not found'],
  // The contract answers 400 when the team a captain edits (name, captain, invite code, a kick)
  // or an invite code names is missing (api-contract §2.9).
  Team_NotFoundForEdit: [400, 'Team not found'],
  Team_NameNotFound: [400, 'Team not found'],
  Team_NameEmpty: [400, 'A team needs a name'],
  Team_ExceededCreationLimit: [400, 'You already captain 3 teams, the most allowed'],
  Team_NotCaptain: [403, 'Only the team captain may do this'],
  Team_NewCaptainNotFound: [400, 'The new captain is not a member of this team'],
  Team_NewCaptainTeamTooMany: [400, 'The new captain already captains 3 teams'],
  Team_Locked: [400, 'The team is locked while one of its games is unfinished'],
  Team_InvalidCode: [400, 'This invite code is not valid'],
  Team_NameInvalidInvitation: [400, 'This invite code is out of date; ask the captain for a new one'],
  Team_CaptainCannotLeave: [
    400,
    'The captain cannot leave; hand the captaincy to another member or disband the team',
  ],
  Team_CaptainCannotBeKicked: [400, 'The captain cannot be removed from the team'],
  Team_AvatarUpdateFailed: [400, 'The image could not be read; use PNG, GIF, JPEG, WebP, AVIF or HEIC'],
  User_NotInTeam: [400, 'This user is not a member of the team'],
  User_AlreadyInTeam: [400, 'You are already a member of this team'],
  User_LeaveNotInTeam: [400, 'You are not a member of this team'],
  Signature_Invalid: [400, 'The team token or public key is malformed'],
  Signature_Wrong: [401, 'The signature does not match'],
  // Games and challenges (edit)
  Game_NotFound: [404, 'Game not found'],
  Challenge_NotFound: [404, 'Challenge not found'],
  Challenge_NoFlag: [400, 'Add a flag before enabling this challenge'],
  Challenge_CaptureNotAllowed: [400, 'Traffic capture needs a container challenge'],
  Challenge_DynamicAssetsNotNullable: [400, 'The attachment file name must not be blank'],
  Challenge_FlagTooTrivial: [
    400,
    'This flag template is too easy to guess; use [GUID], [TEAM_HASH] or a longer text',
  ],
  Challenge_UseAssetsApiForDynamic: [400, 'A dynamic-attachment challenge takes its files with its flags'],
  Challenge_AttachmentInvalid: [400, 'A local attachment needs a stored file hash; a remote one needs a URL'],
  Challenge_ScheduleInvalid: [400, 'The closing time must come after the opening time'],
  Challenge_SourceKeyTaken: [409, 'Another challenge of this game already has this source key'],
  Notification_NotFound: [404, 'Notice not found'],
  Notification_SystemNotEditable: [400, 'Notices posted by the platform cannot be edited'],
  Participation_NotFound: [404, 'Participation not found'],
  Participation_TransitionInvalid: [400, 'A participation cannot go from {0} to {1}'],
  Game_InvalidDivision: [400, 'This division does not exist in the game'],
  Game_NotParticipated: [400, 'Your team has not joined this game'],
  Game_ParticipationNotAccepted: [400, 'Your team’s registration has not been accepted'],
  Game_NotStarted: [400, 'The game has not started yet', 10001],
  Game_Ended: [400, 'The game has ended', 10002],
  Game_InvalidInvitationCode: [400, 'The invite code is wrong'],
  Game_NotMemberOfTeam: [400, 'You are not a member of this team'],
  Game_InOtherTeam: [400, 'You have already joined this game'],
  Game_TeamMemberLimitExceeded: [400, 'The team already has as many players in this game as allowed'],
  Game_CannotLeaveWithoutJoin: [400, 'You have not joined this game'],
  Game_CannotLeaveAfterApproval: [400, 'You cannot leave a game once your team is accepted'],
  Game_ChallengeNotFound: [404, 'Challenge not found'],
  Model_FlagRequired: [400, 'A flag is required'],
  Model_FlagTooLong: [400, 'A flag has at most 127 characters'],
  Challenge_SubmissionLimitExceeded: [400, 'Your team has used all its attempts at this challenge'],
  Challenge_Closed: [400, 'This challenge is closed: it no longer takes flags'],
  Submission_NotFound: [404, 'Submission not found'],
  Game_WriteupNotNeeded: [400, 'This game does not take writeups'],
  Game_DeadlineExpired: [400, 'The writeup deadline has passed'],
  File_PdfOnly: [400, 'Writeups must be PDF files'],
  Game_TimeInvalid: [400, 'The game must end after it starts'],
  // Pennant additions: the scoreboard freeze
  Game_FreezeTimeInvalid: [
    400,
    'The freeze must lie between the start and the end of the game, and the reveal after the freeze',
  ],
  Game_NotFrozen: [400, 'The scoreboard of this game is not frozen'],
  // Containers
  Container_NotConfigured: [400, 'Containers are not configured on this server; ask an administrator'],
  Container_ConfigError: [400, 'Set the container image and exposed port of this challenge first'],
  Container_ImageNotFound: [400, 'The container image {0} was not found; tell the organisers'],
  Container_Unreachable: [400, 'The container engine does not answer; tell the organisers'],
  Container_LimitsInvalid: [400, 'The container engine refused this challenge’s limits: {0}'],
  Container_CreationFailed: [400, 'The container could not be started: {0}'],
  Container_CheckRunning: [409, 'This challenge is being checked already; wait for that check to finish'],
  Game_ContainerCreationNotAllowed: [400, 'This challenge has no container'],
  Game_OperationTooFrequent: [429, 'Wait {0} s before starting or destroying this container again'],
  Game_ContainerAlreadyCreated: [400, 'Your team’s container for this challenge is already running'],
  Game_ContainerCreationFailed: [
    400,
    'The container could not be started; try again, and tell the organisers if it keeps failing',
  ],
  Game_ContainerNumberLimitExceeded: [400, 'Your team may run {0} containers at once; destroy one first'],
  Game_ContainerNotCreated: [400, 'Your team has no container for this challenge'],
  Game_ContainerExtensionNotAvailable: [400, 'A container can be extended in its last {0} minutes'],
  Game_ContainerDeletionFailed: [400, 'The container could not be destroyed; try again'],
  Admin_ContainerInstanceNotFound: [404, 'Container not found'],
  // Platform proxy (api-contract §2.8)
  Proxy_TcpDisabled: [400, 'This server does not proxy container connections'],
  Container_NotFound: [404, 'Container not found'],
  Container_ConnectionLimitExceeded: [
    400,
    'This container has {0} open connections already; close one first',
  ],
  Game_CaptureNotFound: [404, 'No traffic capture found'],
  Proxy_ConnectFailed: [418, 'Could not connect to the container: {0}'],
  Admin_UserNotFound: [404, 'User not found'],
  Admin_SelfDeletionNotAllowed: [400, 'You cannot delete your own account'],
  Admin_SelfRoleChangeNotAllowed: [400, 'You cannot change your own role; ask another administrator'],
  Admin_CaptainDeletionNotAllowed: [
    400,
    'This user captains a team; hand the team to another member or delete the team first',
  ],
  // Upstream answers 400, not 404, when the team to edit is missing.
  Admin_TeamNotFoundForEdit: [400, 'Team not found'],
  Token_NotFound: [404, 'API token not found'],
  // Game transfer (our addition)
  Transfer_NotAnArchive: [400, 'This file is not a ZIP archive, or it is damaged or cut short'],
  Transfer_Foreign: [400, 'This archive is not a Pennant game archive'],
  Transfer_UnsupportedVersion: [400, 'This game archive has version {0}, which this server cannot read'],
  Transfer_ManifestInvalid: [400, 'The manifest of this game archive is damaged: {0}'],
  Transfer_BlobMissing: [400, 'The archive lacks the file {0} that its manifest lists'],
  Transfer_BlobCorrupt: [400, 'The file {0} in the archive is damaged: its content does not match its hash'],
  Transfer_ArchiveTooLarge: [413, 'The archive is larger than the limit of {0} MiB'],
  Transfer_TooManyEntries: [413, 'The archive holds more than {0} entries'],
  Transfer_UnpackedTooLarge: [413, 'The archive unpacks to more than {0} MiB'],
  // Posts and captcha
  Post_NotFound: [404, 'Post not found'],
  Captcha_NotEnabled: [404, 'Proof-of-work captcha is not enabled'],
  // Sign-in with an identity provider (our addition)
  Oidc_Off: [404, 'Sign-in with an identity provider is switched off'],
  Oidc_ProviderNotFound: [404, 'Identity provider not found'],
  Oidc_SlugUsed: [400, 'Another identity provider already uses this short name'],
  Oidc_IssuerInvalid: [400, 'The issuer must be an https:// URL (http:// only on localhost)'],
  Oidc_Unreachable: [400, 'The identity provider could not be reached; try again later'],
  Oidc_NotLinked: [404, 'Your account is not linked to this identity provider'],
  Oidc_LastSignIn: [
    400,
    'This is the only way to sign in to your account; set a password or link another provider first',
  ],
  // Webhooks (our addition)
  Webhook_Off: [404, 'Webhooks are switched off; an admin can turn them on'],
  Webhook_NotFound: [404, 'Webhook not found'],
  Webhook_DeliveryNotFound: [404, 'Delivery not found'],
  Webhook_DeliveryPending: [400, 'This delivery is still queued; it is sent without a retry'],
  Webhook_UrlInvalid: [
    400,
    'The endpoint must be an http:// or https:// URL without a user name or password',
  ],
  Webhook_UrlBlocked: [
    400,
    'This address is not allowed: internal, special-purpose and cloud metadata addresses are blocked',
  ],
  Webhook_GameNotFound: [400, 'The game to filter on does not exist'],
  // Success messages (200 answers that carry a title): told in the request's culture like the
  // errors, through `request.localTitle(key)`.
  Account_RegisteredLoggedIn: [200, 'Registered and signed in'],
  Account_RegisteredAdminConfirmation: [200, 'Registered; an administrator will activate your account'],
  Account_RegisteredEmailConfirmation: [200, 'Registered; check your mailbox to confirm your e-mail address'],
  Account_RecoveryMailSent: [200, 'A password-reset link has been sent to your e-mail address'],
  Account_EmailChangeMailSent: [200, 'A confirmation link has been sent to the new address'],
} as const satisfies Record<string, readonly [number, string] | readonly [number, string, number]>

export type ErrorKey = keyof typeof catalogue

export class AppError extends Error {
  /** The `status` written in the body; differs from HTTP only for 10001/10002. */
  readonly bodyStatus: number
  constructor(
    readonly key: ErrorKey | 'Custom',
    readonly httpStatus: number,
    message: string,
    opts: {
      bodyStatus?: number
      data?: unknown
      headers?: Record<string, string>
      params?: readonly (string | number)[]
    } = {},
  ) {
    super(message)
    this.bodyStatus = opts.bodyStatus ?? httpStatus
    this.data = opts.data
    this.headers = opts.headers
    this.params = opts.params
  }
  readonly data: unknown
  readonly headers: Record<string, string> | undefined
  /** Set when the title is the catalogue's, so it can be told again in the request's culture. */
  readonly params: readonly (string | number)[] | undefined
}

/** The English titles by key: the en-US source the translators' files follow. */
export const englishTitles: Readonly<Record<ErrorKey, string>> = Object.fromEntries(
  Object.entries(catalogue).map(([key, [, title]]) => [key, title]),
) as Record<ErrorKey, string>

export function format(template: string, params: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (_, i) => String(params[Number(i)] ?? ''))
}

/** Builds the catalogue error `key`; `params` fill `{0}`, `{1}`… in its title. */
export function fail(
  key: ErrorKey,
  opts: {
    params?: readonly (string | number)[]
    data?: unknown
    headers?: Record<string, string>
    bodyStatus?: number
  } = {},
): AppError {
  const [status, title, bodyStatus] = catalogue[key] as readonly [number, string, number?]
  const params = opts.params ?? []
  return new AppError(key, status, format(title, params), { bodyStatus, ...opts, params })
}

/** An error with a title worked out at run time (e.g. naming the invalid field). */
export function failWith(httpStatus: number, title: string): AppError {
  return new AppError('Custom', httpStatus, title)
}
