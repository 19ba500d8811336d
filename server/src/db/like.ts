/** A `LIKE`/`ILIKE` pattern matching `text` literally (its `%`, `_` and `\` escaped). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)
