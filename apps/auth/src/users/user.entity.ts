import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Role, UserStatus } from '@tollgate/contracts';

@Entity({ tableName: 'users' })
export class User {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'text', unique: true })
  username!: string;

  /** argon2id hash; null for accounts that only sign in through OAuth. */
  @Property({ type: 'text', nullable: true, hidden: true })
  passwordHash!: string | null;

  @Property({ type: 'text' })
  displayName!: string;

  @Property({ type: 'text', nullable: true, unique: true })
  email!: string | null;

  @Property({ type: 'smallint' })
  role: Opt<Role> = Role.User;

  @Property({ type: 'smallint' })
  status: Opt<UserStatus> = UserStatus.Enabled;

  @Property({ type: 'text', fieldName: 'group' })
  group: Opt<string> = 'default';

  @Index()
  @Property({ type: 'integer', nullable: true })
  inviterId!: number | null;

  /** The user's invite code, made on first request; null until then. */
  @Property({ type: 'text', nullable: true, unique: true })
  affCode: (string & Opt) | null = null;

  /** new-api's per-user settings document (JSON text), empty until the user saves some. */
  @Property({ type: 'text' })
  setting: Opt<string> = '';

  /** When the user accepted the offer, rules and policy; null for accounts made by configuration. */
  @Property({ type: 'datetime', nullable: true })
  termsAcceptedAt: (Date & Opt) | null = null;

  /** When the user consented to the processing of personal data. */
  @Property({ type: 'datetime', nullable: true })
  dataProcessingAcceptedAt: (Date & Opt) | null = null;

  /** SHA-256 (hex) of the personal access token; the token itself is shown once and never kept. */
  @Property({ type: 'text', nullable: true, unique: true, hidden: true })
  accessTokenHash: (string & Opt) | null = null;

  /**
   * Epoch ms: browser sessions begun before it are over (set when the password changes or is
   * reset). Null when no such change has happened.
   */
  @Property({ type: 'bigint', runtimeType: 'number', nullable: true })
  sessionsValidAfter: (number & Opt) | null = null;

  /** The linked accounts' ids at each OAuth provider; null when not linked. */
  @Property({ type: 'text', nullable: true, unique: true })
  githubId: (string & Opt) | null = null;

  @Property({ type: 'text', nullable: true, unique: true })
  googleId: (string & Opt) | null = null;

  @Property({ type: 'text', nullable: true, unique: true })
  discordId: (string & Opt) | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  deletedAt!: Date | null;
}
