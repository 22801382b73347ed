import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { RunNotes } from '../features/rolls/import-notes.ts';
import { searchColumnSchema } from '../features/search/search-columns.schema.ts';

/*
 * Typed view of migrations/*.sql for the repositories. The SQL files are the source of truth;
 * test/schema-drift.test.ts checks these definitions against the migrated database.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const clients = pgTable('clients', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  city: text('city').notNull(),
  stateProvince: text('state_province').notNull(),
  country: text('country').notNull(),
  description: text('description').notNull(),
  bannerImage: text('banner_image'),
  isActive: boolean('is_active').notNull(),
  isProduction: boolean('is_production').notNull(),
  allowsImage: boolean('allows_image').notNull(),
  pictureLevel: text('picture_level').notNull(),
  allowPaymentLink: boolean('allow_payment_link').notNull(),
  paymentLink: text('payment_link').notNull(),
  activeRollId: integer('active_roll_id'),
  parcelCount: integer('parcel_count').notNull(),
  lastUpdated: ts('last_updated'),
  createdAt: ts('created_at').notNull().defaultNow(),
  // migrations/0016: owner privacy (features/properties/owner-privacy.ts).
  publishOwnerNames: boolean('publish_owner_names').notNull().default(true),
  ownerNameSearch: boolean('owner_name_search').notNull().default(true),
  // migrations/0020: when the town took its current name by a rename; null: it was created with it.
  citySince: ts('city_since'),
});

export const clientCityAliases = pgTable(
  'client_city_aliases',
  {
    stateProvince: text('state_province').notNull(),
    cityKey: text('city_key').notNull(),
    clientId: integer('client_id').notNull(),
    /** When the town left the name (migrations/0020): its latest few old names are kept. */
    leftAt: ts('left_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.stateProvince, t.cityKey] })],
);

export const contacts = pgTable('contacts', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  clientId: integer('client_id').notNull(),
  title: text('title').notNull(),
  contactUrl: text('contact_url').notNull(),
  hoursOfOperation: text('hours_of_operation').notNull(),
  telephone: text('telephone').notNull(),
  contactEmail: text('contact_email').notNull(),
  freeFormMessage: text('free_form_message').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  username: text('username').notNull(),
  email: text('email').notNull(),
  roleId: smallint('role_id').notNull(),
  manages: integer('manages'),
  passwordHash: text('password_hash').notNull(),
  totpSecret: text('totp_secret'),
  totpEnabled: boolean('totp_enabled').notNull(),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  passwordChangedAt: ts('password_changed_at').notNull().defaultNow(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const sessions = pgTable('sessions', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  ip: text('ip'),
  userAgent: text('user_agent'),
});

export const storedFiles = pgTable('stored_files', {
  name: text('name').primaryKey(),
  clientId: integer('client_id'),
  kind: text('kind', { enum: ['banner', 'property'] }).notNull(),
  contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
  byteSize: integer('byte_size').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  sha256: text('sha256').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// migrations/0015: scaled-down copies (?w=), made once per width and shared by every node.
export const storedFileVariants = pgTable(
  'stored_file_variants',
  {
    name: text('name').notNull(),
    width: integer('width').notNull(),
    contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    byteSize: integer('byte_size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.name, t.width] })],
);

export const importRuns = pgTable(
  'import_runs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clientId: integer('client_id').notNull(),
    userId: integer('user_id'),
    actor: text('actor').notNull(),
    fileName: text('file_name').notNull(),
    status: text('status', { enum: ['validating', 'importing', 'succeeded', 'failed'] }).notNull(),
    totalRecords: integer('total_records').notNull(),
    importedRecords: integer('imported_records').notNull(),
    errorCount: integer('error_count').notNull(),
    errors: jsonb('errors').$type<string[]>().notNull(),
    message: text('message'),
    // migrations/0010: the share of the file read, and the index phase, for progress.
    fileBytes: bigint('file_bytes', { mode: 'number' }),
    bytesRead: bigint('bytes_read', { mode: 'number' }),
    indexing: boolean('indexing').notNull().default(false),
    // migrations/0023: the record count of the preview the provider confirmed, for progress.
    expectedRecords: integer('expected_records'),
    // migrations/0017: the roll's tax year, under which its values are filed in value_history (0022).
    taxYear: integer('tax_year'),
    // migrations/0022: the year its values are filed under in value_history (tax year, else publish year).
    historyYear: integer('history_year'),
    // migrations/0025: the date the roll's values are as of, when the provider gave it.
    valuationDate: date('valuation_date', { mode: 'string' }),
    // migrations/0018: what the roll was read from (a built-in format or a mapping, and the files).
    sourceFormat: text('source_format'),
    sourceMapping: text('source_mapping'),
    sourceMappingJson: jsonb('source_mapping_json'),
    sourceFiles: jsonb('source_files').$type<string[]>().notNull().default([]),
    // migrations/0019: whether the roll's rows carry owner_words (false: published before 0016).
    ownerWords: boolean('owner_words').notNull().default(true),
    // migrations/0024: what a published run said besides its errors (warnings, values a mapping changed).
    notes: jsonb('notes').$type<RunNotes>(),
    startedAt: ts('started_at').notNull().defaultNow(),
    heartbeatAt: ts('heartbeat_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  // migrations/0002_roll_publishing.sql: the running run is the per-client lock.
  (t) => [
    uniqueIndex('import_runs_one_running_uq')
      .on(t.clientId)
      .where(sql`${t.status} in ('validating', 'importing')`),
  ],
);

// migrations/0006: LIST-partitioned by roll_id; each roll's rows live in their own table
// (`properties_r{rollId}`, features/rolls/rolls.repository.ts), queried through this one.
export const properties = pgTable(
  'properties',
  {
    rollId: integer('roll_id').notNull(),
    clientId: integer('client_id').notNull(),
    /** A roll imported before migration 0009: its records (whole JSON). Later rolls: null. */
    record: text('record'),
    // The search row: features/search/search-columns.ts, one entry per column.
    ...searchColumnSchema(),
  },
  (t) => [primaryKey({ columns: [t.rollId, t.account] })],
);

// migrations/0009: each parcel's packed record (features/properties/record-codec.ts), partitioned like
// `properties` (`property_records_r{rollId}`).
export const propertyRecords = pgTable(
  'property_records',
  {
    rollId: integer('roll_id').notNull(),
    account: text('account').notNull(),
    record: text('record').notNull(),
  },
  (t) => [primaryKey({ columns: [t.rollId, t.account] })],
);

// migrations/0022: each town's valuation history, one line per account and year
// (features/rolls/value-history.ts).
export const valueHistory = pgTable(
  'value_history',
  {
    clientId: integer('client_id').notNull(),
    account: text('account').notNull(),
    year: integer('year').notNull(),
    landValue: doublePrecision('land_value'),
    buildingValue: doublePrecision('building_value'),
    totalValue: doublePrecision('total_value'),
    listed: boolean('listed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.account, t.year] })],
);

export const auditLog = pgTable('audit_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  at: ts('at').notNull().defaultNow(),
  actorUserId: integer('actor_user_id'),
  actorUsername: text('actor_username'),
  ip: text('ip'),
  clientId: integer('client_id'),
  action: text('action').notNull(),
  entity: text('entity').notNull(),
  entityId: text('entity_id'),
  before: jsonb('before'),
  after: jsonb('after'),
});

// migrations/0003_security.sql: rate limits, login throttling, two-factor recovery codes.
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    hits: integer('hits').notNull(),
    prevHits: integer('prev_hits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] })],
);

export const loginThrottle = pgTable(
  'login_throttle',
  {
    scope: text('scope', { enum: ['user', 'ip'] }).notNull(),
    key: text('key').notNull(),
    attempts: integer('attempts').notNull(),
    windowStart: ts('window_start').notNull(),
    lockedUntil: ts('locked_until'),
    strikes: integer('strikes').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

export const totpRecoveryCodes = pgTable(
  'totp_recovery_codes',
  {
    userId: integer('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);
