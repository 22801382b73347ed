import { z } from 'zod';
import { User } from './users.ts';

export const LoginBody = z.object({
  Identity: z.string().trim().min(1, { message: 'Username is required' }).max(254),
  Password: z.string().min(1, { message: 'Password is required' }).max(256),
  /** TOTP or recovery code, when the account has two-factor sign-in on. */
  Code: z.string().trim().max(32).optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginResponse = z.object({ Status: z.number().int(), user: User, accessToken: z.string() });
export type LoginResponse = z.infer<typeof LoginResponse>;

export const INVALID_LOGIN_MESSAGE = 'Username or password was incorrect';

/** GET /api/config: the few server settings the browser may know (the provider's name for titles). */
export const PublicConfig = z.object({
  providerName: z.string(),
  /** The base map's tile address ({z}/{x}/{y}) under the parcel maps; empty: parcels only. */
  mapTilesUrl: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
