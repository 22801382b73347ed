import { z } from 'zod';
import { safeText } from './common.ts';
import { EMAIL } from './links.ts';

/** Spec §6 role ids. Lower number = more power. */
export const Role = { Provider: 1, SuperAdmin: 2, SiteAdmin: 3, Lower: 4 } as const;
export type RoleId = 1 | 2 | 3 | 4;
export const RoleIdSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], {
  error: 'RoleID must be 1, 2, 3 or 4',
});
export const DEFAULT_ADMIN_ROLE: RoleId = 3;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

export const User = z.object({
  UserId: z.number().int(),
  Username: z.string(),
  Email: z.string(),
  RoleID: RoleIdSchema,
  Manages: z.number().int().nullable(),
  TwoFactorEnabled: z.boolean(),
});
export type User = z.infer<typeof User>;
export const UserList = z.array(User);

export const Password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters` })
  .max(MAX_PASSWORD_LENGTH, { message: `Password must be at most ${MAX_PASSWORD_LENGTH} characters` })
  .refine((s) => !s.includes('\u0000'), 'Password must not contain NUL characters');

/** POST /api/user and PUT /api/user/{id}. Password is optional on update (sent only when non-empty). */
export const UserBody = z.object({
  UserId: z.number().int().nullish(),
  Username: safeText(100)
    .pipe(z.string().trim().min(3, { message: 'Username must be at least 3 characters' }))
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._@-]+$/, { message: 'Username may hold only letters, digits and . _ @ -' }),
    ),
  Email: safeText(254).pipe(
    z.string().trim().regex(EMAIL, { message: 'Email Address is not a valid email' }),
  ),
  RoleID: RoleIdSchema.optional(),
  Manages: z.number().int().positive().max(2_147_483_647).nullish(),
  Password: z.preprocess((v) => (v === '' || v === null ? undefined : v), Password.optional()),
  /** Changing one's own password, email or username: the password in use now (issues 37, 46). */
  CurrentPassword: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  /** …and, when two-factor sign-in is on, a current code or a recovery code. */
  Code: z.string().trim().max(32).optional(),
});
export type UserBody = z.input<typeof UserBody>;
