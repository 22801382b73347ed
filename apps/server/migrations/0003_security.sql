-- Security state shared by every API node: rate-limit counters, login throttling, two-factor recovery
-- codes, and the append-only guarantee of the audit log.

-- Per-address request counters: one row per (bucket, address) holding the current one-minute window's
-- count and the previous window's, so one upsert both counts a request and returns what the sliding
-- estimate needs. Unlogged: counters are worth no WAL traffic, and losing them in a crash only resets
-- everyone's budget.
create unlogged table rate_limit_hits (
  bucket       text not null,
  key          text not null,
  window_start timestamptz not null,
  hits         integer not null,
  prev_hits    integer not null default 0,
  primary key (bucket, key)
);
create index rate_limit_hits_window_idx on rate_limit_hits (window_start);

-- Sign-in attempts per username ('user') and per client address ('ip'). An attempt is counted before
-- the password is hashed; `strikes` makes each lock-out of the same account longer than the last.
create table login_throttle (
  scope        text not null check (scope in ('user', 'ip')),
  key          text not null,
  attempts     integer not null default 0,
  window_start timestamptz not null,
  locked_until timestamptz,
  strikes      integer not null default 0,
  updated_at   timestamptz not null,
  primary key (scope, key)
);

-- One-time recovery codes for two-factor sign-in, stored as SHA-256 hashes (the codes are random,
-- 50 bits each, so a fast hash is enough; they are shown once, at enrolment).
create table totp_recovery_codes (
  user_id    integer not null references users(id) on delete cascade,
  code_hash  text not null,
  created_at timestamptz not null default now(),
  primary key (user_id, code_hash)
);

-- The audit log is append-only: no row may change or disappear, whoever asks.
create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only';
end $$;
create trigger audit_log_no_update_delete before update or delete on audit_log
  for each row execute function audit_log_append_only();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_append_only();
create index audit_log_actor_idx on audit_log (actor_user_id, id desc);
