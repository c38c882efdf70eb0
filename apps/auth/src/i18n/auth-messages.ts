import type { AuthMessageKey } from '@tollgate/contracts';
import type { Locale } from './locale';

/** Texts of SPEC §5 and §8 word for word in Russian; the rest written to match them. */
const MESSAGES: Record<AuthMessageKey, Record<Locale, string>> = {
  login_fields_required: {
    ru: 'Пожалуйста, введите имя пользователя и пароль',
    en: 'Please enter your username and password',
  },
  register_fields_required: {
    ru: 'Пожалуйста, введите имя пользователя, email, пароль и подтверждение пароля',
    en: 'Please enter a username, email, password and password confirmation',
  },
  email_required: { ru: 'Пожалуйста, введите email', en: 'Please enter your email' },
  value_too_long: { ru: 'Введённое значение слишком длинное', en: 'The value entered is too long' },
  username_invalid: {
    ru: 'Имя пользователя: не более 20 символов — буквы, цифры, «_», «-» и «.»',
    en: 'A username is at most 20 characters: letters, digits, "_", "-" and "."',
  },
  email_invalid: { ru: 'Пожалуйста, введите корректный email', en: 'Please enter a valid email' },
  terms_required: {
    ru: 'Для завершения регистрации необходимо принять Оферту, Правила и Политику сервиса',
    en: 'To complete registration, please accept the Offer, the Rules and the Policy of the service',
  },
  data_processing_required: {
    ru: 'Для завершения регистрации необходимо согласие на обработку персональных данных',
    en: 'To complete registration, please consent to the processing of personal data',
  },
  verification_code_required: {
    ru: 'Пожалуйста, введите код верификации',
    en: 'Please enter the verification code',
  },
  verification_code_invalid: {
    ru: 'Неверный или просроченный код верификации',
    en: 'The verification code is wrong or has expired',
  },
  password_too_short: {
    ru: 'Пароль должен быть не менее 8 символов',
    en: 'The password must be at least 8 characters long',
  },
  password_too_long: {
    ru: 'Пароль должен быть не более 22 символов',
    en: 'The password must be at most 22 characters long',
  },
  password_invalid_chars: {
    ru: 'Пароль содержит недопустимые символы',
    en: 'The password contains characters that are not allowed',
  },
  username_taken: { ru: 'Это имя пользователя уже занято', en: 'This username is already taken' },
  registration_closed: {
    ru: 'Регистрация новых пользователей сейчас закрыта',
    en: 'Registration of new users is closed at the moment',
  },
  email_taken: { ru: 'Этот email уже зарегистрирован', en: 'This email is already registered' },
  verification_cooldown: {
    ru: 'Код уже отправлен. Повторно запросить код можно через {seconds} с',
    en: 'A code has already been sent. You can request a new one in {seconds} s',
  },
  verification_rate_limited: {
    ru: 'Слишком много запросов кода. Попробуйте снова через {seconds} с',
    en: 'Too many code requests. Try again in {seconds} s',
  },
  mail_failed: {
    ru: 'Не удалось отправить письмо. Попробуйте позже',
    en: 'The email could not be sent. Please try again later',
  },
  invalid_credentials: {
    ru: 'Неверное имя пользователя или пароль',
    en: 'Wrong username or password',
  },
  user_disabled: { ru: 'Пользователь заблокирован', en: 'This account is disabled' },
  password_login_disabled: {
    ru: 'Вход по паролю отключён. Войдите через GitHub, Google или Discord',
    en: 'Sign-in by password is turned off. Sign in with GitHub, Google or Discord',
  },
  login_rate_limited: {
    ru: 'Слишком много попыток входа. Попробуйте снова через {seconds} с',
    en: 'Too many sign-in attempts. Try again in {seconds} s',
  },
  verification_sent: { ru: 'Код отправлен', en: 'Code sent' },
  login_success: { ru: 'Вы успешно вошли в систему', en: 'You have signed in' },
  register_success: { ru: 'Вы успешно зарегистрировались', en: 'You have registered' },
  logout_success: { ru: 'Вы успешно вышли из системы', en: 'You have signed out' },
  verification_mail_subject: { ru: 'Код подтверждения Tollgate', en: 'Your Tollgate verification code' },
  verification_mail_body: {
    ru: 'Ваш код подтверждения: {code}\nКод действует {minutes} минут. Если вы не запрашивали код, просто проигнорируйте это письмо.',
    en: 'Your verification code: {code}\nThe code is valid for {minutes} minutes. If you did not ask for it, ignore this email.',
  },
  token_name_required: { ru: 'Название токена не может быть пустым', en: 'Token name cannot be empty' },
  token_name_too_long: {
    ru: 'Название токена должно быть не длиннее 50 символов',
    en: 'The token name must be at most 50 characters long',
  },
  token_ip_invalid: {
    ru: 'Разрешённые IP: укажите адреса или подсети CIDR',
    en: 'Allowed IPs must be addresses or CIDR blocks',
  },
  token_limit_above_group: {
    ru: 'Лимит ключа не может быть выше лимита его группы: {limit}',
    en: "A key's limit cannot be above its group's: {limit}",
  },
  token_quota_negative: {
    ru: 'Квота токена не может быть отрицательной',
    en: 'The token quota cannot be negative',
  },
  token_field_invalid: { ru: 'Некорректные параметры токена', en: 'Invalid token parameters' },
  token_not_found: { ru: 'Токен не найден', en: 'Token not found' },
  token_created: { ru: 'Токен создан', en: 'Token created' },
  token_updated: { ru: 'Токен обновлён', en: 'Token updated' },
  token_deleted: { ru: 'Токен удалён', en: 'Token deleted' },
  display_name_invalid: {
    ru: "Отображаемое имя: от 1 до 20 символов — буквы, цифры, пробелы, «_», «.», «'» и «-»",
    en: 'A display name is 1 to 20 characters: letters, digits, spaces, "_", ".", "\'" and "-"',
  },
  original_password_required: {
    ru: 'Для смены пароля или email введите текущий пароль',
    en: 'Enter your current password to change the password or email',
  },
  original_password_wrong: { ru: 'Неверный текущий пароль', en: 'The current password is wrong' },
  setting_invalid: { ru: 'Некорректные настройки', en: 'Invalid settings' },
  profile_updated: { ru: 'Профиль обновлён', en: 'Profile updated' },
  password_updated: { ru: 'Пароль успешно обновлен', en: 'Password updated successfully' },
  settings_saved: { ru: 'Настройки сохранены', en: 'Settings saved' },
  account_deleted: { ru: 'Аккаунт удалён', en: 'Account deleted' },
  root_cannot_be_deleted: {
    ru: 'Аккаунт суперадминистратора нельзя удалить',
    en: 'The root account cannot be deleted',
  },
  reset_fields_required: {
    ru: 'Пожалуйста, введите новый пароль',
    en: 'Please enter a new password',
  },
  reset_code_sent: {
    ru: 'Код для сброса пароля отправлен на ваш email',
    en: 'A password reset code has been sent to your email',
  },
  reset_rate_limited: {
    ru: 'Слишком много запросов сброса пароля. Попробуйте снова через {seconds} с',
    en: 'Too many password reset requests. Try again in {seconds} s',
  },
  reset_mail_subject: { ru: 'Сброс пароля Tollgate', en: 'Your Tollgate password reset code' },
  reset_mail_body: {
    ru: 'Ваш код для сброса пароля: {code}\nКод действует {minutes} минут. Если вы не запрашивали сброс, просто проигнорируйте это письмо.',
    en: 'Your password reset code: {code}\nThe code is valid for {minutes} minutes. If you did not ask for it, ignore this email.',
  },
  user_field_invalid: { ru: 'Некорректные параметры пользователя', en: 'Invalid user parameters' },
  user_action_invalid: {
    ru: 'Неизвестное действие: допустимы disable, enable, promote, demote, delete',
    en: 'Unknown action: use disable, enable, promote, demote or delete',
  },
  user_not_found: { ru: 'Пользователь не найден', en: 'User not found' },
  role_change_root_only: {
    ru: 'Менять роль пользователя может только суперадминистратор',
    en: 'Only the root user can change roles',
  },
  cannot_manage_peer: {
    ru: 'Нельзя управлять пользователем с такой же или более высокой ролью',
    en: 'You cannot manage a user whose role is equal to or higher than yours',
  },
  user_already_admin: { ru: 'Пользователь уже администратор', en: 'The user is already an admin' },
  user_already_user: {
    ru: 'Пользователь уже обычный пользователь',
    en: 'The user is already an ordinary user',
  },
  quota_change_failed: {
    ru: 'Не удалось изменить баланс пользователя. Попробуйте позже',
    en: 'The user’s balance could not be changed. Please try again later',
  },
  user_created: { ru: 'Пользователь создан', en: 'User created' },
  user_updated: { ru: 'Пользователь обновлён', en: 'User updated' },
  user_deleted: { ru: 'Пользователь удалён', en: 'User deleted' },
  oauth_provider_unknown: { ru: 'Неизвестный провайдер OAuth', en: 'Unknown OAuth provider' },
  oauth_not_configured: { ru: '{provider} OAuth не настроен', en: '{provider} OAuth is not configured' },
  oauth_state_invalid: {
    ru: 'Состояние {provider} OAuth не найдено или устарело. Попробуйте войти ещё раз',
    en: '{provider} OAuth state not found or expired. Please sign in again',
  },
  oauth_consent_required: {
    ru: 'Для регистрации через OAuth необходимо принять Оферту, Правила и Политику сервиса, а также согласиться на обработку персональных данных',
    en: 'To register through OAuth, please accept the Offer, the Rules and the Policy of the service and consent to the processing of personal data',
  },
  oauth_failed: {
    ru: 'Не удалось войти через {provider}. Попробуйте ещё раз',
    en: 'Signing in with {provider} failed. Please try again',
  },
  oauth_already_linked: {
    ru: 'Этот аккаунт {provider} уже привязан к другому пользователю',
    en: 'This {provider} account is already linked to another user',
  },
  oauth_not_linked: { ru: 'Аккаунт {provider} не привязан', en: 'No {provider} account is linked' },
  oauth_last_sign_in_method: {
    ru: 'Нельзя отвязать единственный способ входа: сначала задайте пароль',
    en: 'This is your only way to sign in: set a password before unlinking it',
  },
  oauth_unlinked: { ru: 'Аккаунт {provider} отвязан', en: 'The {provider} account is unlinked' },
  oauth_rate_limited: {
    ru: 'Слишком много попыток входа через OAuth. Попробуйте снова через {seconds} с',
    en: 'Too many OAuth sign-in attempts. Try again in {seconds} s',
  },
  access_token_rate_limited: {
    ru: 'Слишком много запросов токена доступа. Попробуйте снова через {seconds} с',
    en: 'Too many access token requests. Try again in {seconds} s',
  },
};

export type MessageParams = Readonly<Record<string, string | number>>;

/** The message in the caller's language, with `{name}` placeholders filled in. */
export function message(key: AuthMessageKey, locale: Locale, params: MessageParams = {}): string {
  return MESSAGES[key][locale].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
