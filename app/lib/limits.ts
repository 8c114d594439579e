/**
 * How long each kind of input may be, in one place: the zod schemas (./schemas) refuse longer input
 * with a French message, and forms put the same figure in `maxLength`. No zod here, so that a form
 * component can import these figures without shipping zod to the browser.
 *
 *   <Input name="email" type="email" maxLength={LIMITS.email} />
 */
export const LIMITS = {
  /** RFC 5321's longest deliverable address. */
  email: 254,
  /**
   * What a password field takes. A new password is held to the policy's own bound
   * (PASSWORD_MAX_LENGTH, in ~/lib/password-policy), which explains itself in French: a
   * `maxLength` there would cut a pasted password short without a word.
   */
  password: 1024,
  /** A first name, a last name, or a full name typed in one field. */
  name: 100,
  /** A phone number as typed, spaces and "+" included. */
  phone: 30,
  /** The number of the paper receipt handed over at the counter. */
  receiptNumber: 50,
  /** Our payment reference as typed ("ICEF-7K3P-9QX2", with room for spaces). */
  paymentReference: 40,
  /** A six-digit code from an authenticator app, or a backup code. */
  twoFactorCode: 20,
  /** A search box. */
  search: 100,
  /** A title (course, lesson, post). */
  title: 200,
  /** A short text: a reason, a note, an item of a list. */
  shortText: 500,
  /** A long text: a message, a description. */
  longText: 5000,
  /** A text id (users, files) as a form posts it. */
  textId: 100,
} as const;

/** The largest value of a PostgreSQL `integer` (serial ids): beyond it the database would refuse the query. */
export const MAX_SERIAL_ID = 2_147_483_647;
