import type { LoginBody, LoginResponse } from '@opp/contracts';
import { api } from '@/lib/api-client';

/** POST /api/login (Identity is the username or the email). */
export const login = (body: LoginBody) => api<LoginResponse>('POST', '/api/login', { body });
