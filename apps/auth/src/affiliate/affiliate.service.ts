import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import { accessException, type Locale } from '@tollgate/platform';
import { UsersRepository } from '../users/users.repository';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const CODE_LENGTH = 8;
/** A fresh code collides with an existing one about never; a few tries make "never" certain. */
const ATTEMPTS = 5;

/** An invite code: 8 characters without the look-alikes 0/O, 1/l/I. */
export function generateAffCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** GET /api/user/aff: the user's invite code, made on the first call and the same ever after. */
@Injectable()
export class AffiliateService {
  constructor(private readonly users: UsersRepository) {}

  async codeOf(userId: number, locale: Locale): Promise<string> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const outcome = await this.users.change(
        userId,
        (user) => {
          user.affCode ??= generateAffCode();
        },
        { publish: false, taken: 'aff_code' },
      );
      if (outcome.kind === 'not_found') break;
      if (outcome.kind === 'changed' && outcome.user.affCode) return outcome.user.affCode;
    }
    throw accessException(ErrorCode.Unauthenticated, 'authentication_required', locale);
  }
}
