import { useEffect, useState } from 'react';
import { Role, type User } from '@opp/contracts';
import { onTwoFactorEnrolmentRequired } from '@/lib/api-client';
import { useTwoFactorStatus } from '../api/get-two-factor-status';

export type EnrolmentGate = 'checking' | 'enrol' | 'open';

/**
 * Whether a signed-in admin may use the admin area, or must first turn on two-factor sign-in because
 * the provider requires it (REQUIRE_TOTP_FOR_PROVIDER; the server then answers 403 two_factor_required
 * to everything but enrolment). Only a provider admin without it can be in that state, so only they
 * wait for the status; any 403 two_factor_required seen later (the setting changed meanwhile) closes
 * the gate too.
 */
export function useEnrolmentGate(user: User | null): EnrolmentGate {
  const mayBeRequired = user !== null && user.RoleID === Role.Provider && !user.TwoFactorEnabled;
  const status = useTwoFactorStatus(user?.UserId ?? 0, mayBeRequired);
  const [refused, setRefused] = useState(false);
  useEffect(() => onTwoFactorEnrolmentRequired(() => setRefused(true)), []);

  if (user === null) return 'open';
  if (refused) return 'enrol';
  if (!mayBeRequired) return 'open';
  // An unreachable status does not lock anyone out: the server still refuses, and that 403 closes the gate.
  if (status.isPending) return 'checking';
  return status.data?.Required && !status.data.Enabled ? 'enrol' : 'open';
}
