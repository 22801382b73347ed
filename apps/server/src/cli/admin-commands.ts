import { CreateClientBody, Role, UserBody, type RoleId } from '@opp/contracts';
import { clientsProviderService } from '../features/clients/clients.provider.service.ts';
import { resetTwoFactor } from '../features/auth/two-factor.service.ts';
import { usersRepository } from '../features/users/users.repository.ts';
import { usersService } from '../features/users/users.service.ts';
import { cliAuditActor } from './cli-audit.ts';
import { withDatabase } from './database.ts';
import { CliError, parse, positiveInt, readStdin, required, UsageError, write, type CliIo } from './io.ts';

/** The CLI acts with a provider administrator's rights: whoever runs it already holds the database. */
const cliActor = () => ({
  id: 0,
  roleId: Role.Provider as RoleId,
  manages: null,
  accessToken: null,
  audit: cliAuditActor(),
});

const ROLE_NAMES: Record<RoleId, string> = {
  1: 'provider administrator',
  2: 'Super Administrator',
  3: 'Site Administrator',
  4: 'lower role',
};

export const USER_ADD_USAGE = `Usage: portal user add --username U --email E --role 1|2|3|4 [--manages CLIENT_ID] --password-stdin

Creates an admin account. The password is read from standard input (never from
the command line, where other users of the machine could see it), e.g.
  printf '%s' "$PASSWORD" | npm run portal -- user add --username ann --email ann@example.org --role 1 --password-stdin

Options:
  --username U       3 or more letters, digits or . _ @ -
  --email E          the account's email address
  --role R           1 provider administrator (every client, /admin)
                     2 Super Administrator, 3 Site Administrator, 4 lower role (of one client)
  --manages ID       the client a role 2, 3 or 4 account belongs to (see portal client add)
  --password-stdin   read the password (at least 12 characters) from standard input
  -h, --help         show this help`;

export const USER_RESET_TWO_FACTOR_USAGE = `Usage: portal user reset-two-factor --username U

For an admin who lost both their authenticator app and their recovery codes: turns
two-factor sign-in off for the account, deletes its recovery codes and ends all of
its sessions. The person then signs in with their password (and enrols again where
the provider requires it). The change is written to the audit log.

Options:
  --username U       the account's username or email
  -h, --help         show this help`;

export const CLIENT_ADD_USAGE = `Usage: portal client add --state STATE --city CITY [options]

Creates a client (a municipality) and prints its ClientID.

Options:
  --state STATE          state name or abbreviation (Maine, ME)
  --city CITY            city or town name
  --country C            default "United States"
  --description D        default "Town of CITY"
  --inactive             hide it from the public until activated
  --production           a production client (default: Test)
  --deny-images          do not show property images
  --payment-link URL     the pay-now address (the account is appended)
  --deny-payment-link    no pay-now button
  -h, --help             show this help`;

/** Field names in service errors, as the flags a person typed. */
const FLAG_OF: Record<string, string> = {
  Username: '--username',
  Email: '--email',
  RoleID: '--role',
  Manages: '--manages',
  Password: 'password',
  City: '--city',
  StateProvince: '--state',
  Country: '--country',
  Description: '--description',
  PaymentLink: '--payment-link',
};
export const flagOf = (field: string) => FLAG_OF[field] ?? field;

function zodProblems(issues: Array<{ path: PropertyKey[]; message: string }>): CliError {
  const lines = issues.map((i) => `${flagOf(String(i.path[0] ?? ''))}: ${i.message}`);
  return new CliError(lines[0]!, lines.slice(1));
}

/** `portal user add`. */
export async function userCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    write(io.stdout, USER_ADD_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'reset-two-factor') return resetTwoFactorCommand(rest, io);
  if (sub !== 'add')
    throw new UsageError(`unknown subcommand "user ${sub}" (there are: user add, user reset-two-factor)`);
  const { values } = parse(rest, {
    username: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    manages: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  });
  if (values.help) {
    write(io.stdout, USER_ADD_USAGE);
    return 0;
  }
  const username = required(values.username, '--username');
  const email = required(values.email, '--email');
  const roleText = required(values.role, '--role');
  if (!/^[1-4]$/.test(roleText)) throw new UsageError(`--role must be 1, 2, 3 or 4, got "${roleText}"`);
  const roleId = Number(roleText) as RoleId;
  const manages = positiveInt(values.manages, '--manages');
  if (!values['password-stdin'])
    throw new UsageError('give the password on standard input with --password-stdin (never as an argument)');
  if ((io.stdin as { isTTY?: boolean }).isTTY)
    write(io.stderr, 'Reading the password from the terminal (it will show); end with Enter, then Ctrl-D.');
  const password = await readStdin(io.stdin);
  if (password === '') throw new CliError('password: nothing was read from standard input');

  const body = UserBody.safeParse({
    Username: username,
    Email: email,
    RoleID: roleId,
    Manages: manages ?? null,
    Password: password,
  });
  if (!body.success) throw zodProblems(body.error.issues);

  return withDatabase(io, async (database) => {
    // Manages is left out when not given, so the service's rule (roles 2–4 need a client) names it.
    const created = await usersService.create(database.db, cliActor(), {
      ...body.data,
      Manages: manages === undefined ? undefined : manages,
    });
    write(
      io.stdout,
      `Created user "${created.Username}" (UserId ${created.UserId}, role ${created.RoleID} ${ROLE_NAMES[created.RoleID]}${created.Manages ? `, client ${created.Manages}` : ''}).`,
    );
    return 0;
  });
}

/** `portal user reset-two-factor`. */
async function resetTwoFactorCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, { username: { type: 'string' } });
  if (values.help) {
    write(io.stdout, USER_RESET_TWO_FACTOR_USAGE);
    return 0;
  }
  const username = required(values.username, '--username');
  return withDatabase(io, async (database) => {
    const user = await usersRepository.findByIdentity(database.db, username);
    if (!user) throw new CliError(`there is no account "${username}"`);
    const changed = await resetTwoFactor(database.db, user, cliAuditActor());
    write(
      io.stdout,
      changed
        ? `Two-factor sign-in is off for "${user.username}"; its recovery codes are deleted and its sessions ended.`
        : `"${user.username}" had no two-factor sign-in; nothing changed.`,
    );
    return 0;
  });
}

/** `portal client add`. */
export async function clientCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    write(io.stdout, CLIENT_ADD_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'add') throw new UsageError(`unknown subcommand "client ${sub}" (there is: client add)`);
  const { values } = parse(rest, {
    state: { type: 'string' },
    city: { type: 'string' },
    country: { type: 'string' },
    description: { type: 'string' },
    inactive: { type: 'boolean' },
    production: { type: 'boolean' },
    'deny-images': { type: 'boolean' },
    'payment-link': { type: 'string' },
    'deny-payment-link': { type: 'boolean' },
  });
  if (values.help) {
    write(io.stdout, CLIENT_ADD_USAGE);
    return 0;
  }
  const state = required(values.state, '--state');
  const city = required(values.city, '--city');
  if (values['deny-payment-link'] && values['payment-link'] !== undefined)
    throw new UsageError('--payment-link and --deny-payment-link contradict each other');
  const body = CreateClientBody.safeParse({
    City: city,
    StateProvince: state,
    Country: values.country ?? 'United States',
    Description: values.description ?? '',
    IsActive: !values.inactive,
    IsProduction: Boolean(values.production),
    AllowsImage: !values['deny-images'],
    AllowPaymentLink: !values['deny-payment-link'],
    PaymentLink: values['payment-link'] ?? '',
  });
  if (!body.success) throw zodProblems(body.error.issues);

  return withDatabase(io, async (database) => {
    const client = await clientsProviderService.create(database.db, body.data, cliAuditActor());
    write(io.stdout, `Created client ${client.ClientID}: ${client.City}, ${client.StateProvince}.`);
    return 0;
  });
}
