import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  userSettingsSchema,
  type UpdateSettingRequest,
  type UserSettings,
} from '@tollgate/contracts';
import { accessException, type Locale } from '@tollgate/platform';
import { UsersRepository } from '../users/users.repository';

/** The settings document as stored: JSON text, empty until the user saves some. */
export function storedSettings(text: string): UserSettings {
  let parsed: unknown = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    // A document that is not JSON (never written by us) reads as the defaults.
  }
  const settings = userSettingsSchema.safeParse(parsed);
  return settings.success ? settings.data : userSettingsSchema.parse({});
}

/** PUT /api/user/setting: merges the given settings into the user's document. */
@Injectable()
export class SettingsService {
  constructor(private readonly users: UsersRepository) {}

  async update(userId: number, request: UpdateSettingRequest, locale: Locale): Promise<UserSettings> {
    let saved: UserSettings | undefined;
    const outcome = await this.users.change(userId, (user) => {
      const current = storedSettings(user.setting);
      saved = {
        default_currency: request.default_currency ?? current.default_currency,
        language: request.language ?? current.language,
        notification_email: request.notification_email ?? current.notification_email,
      };
      // Published: identity.user carries the currency relay tells the user's costs in.
      user.setting = JSON.stringify(saved);
    });
    if (outcome.kind !== 'changed' || !saved) {
      throw accessException(ErrorCode.Unauthenticated, 'authentication_required', locale);
    }
    return saved;
  }
}
