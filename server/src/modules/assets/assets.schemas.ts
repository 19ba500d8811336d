import { Type } from 'typebox'

/** `LocalFile`: a stored file as the API names it. */
export const LocalFile = Type.Object({ hash: Type.String(), name: Type.String() })
