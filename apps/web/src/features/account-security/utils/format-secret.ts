/** "JBSWY3DPEHPK3PXP…" as "JBSW Y3DP EHPK 3PXP …": groups of four are easier to type by hand. */
export const groupSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** A recovery code file the user can keep; one code a line, with a line saying what they are for. */
export function recoveryCodesText(codes: string[], account: string, issuer: string): string {
  return [
    `Recovery codes for ${account} at ${issuer}`,
    'Each code signs you in once if you cannot use your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}
