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
  token_quota_negative: {
    ru: 'Квота токена не может быть отрицательной',
    en: 'The token quota cannot be negative',
  },
  token_field_invalid: { ru: 'Некорректные параметры токена', en: 'Invalid token parameters' },
  token_not_found: { ru: 'Токен не найден', en: 'Token not found' },
  token_created: { ru: 'Токен создан', en: 'Token created' },
  token_updated: { ru: 'Токен обновлён', en: 'Token updated' },
  token_deleted: { ru: 'Токен удалён', en: 'Token deleted' },
};

export type MessageParams = Readonly<Record<string, string | number>>;

/** The message in the caller's language, with `{name}` placeholders filled in. */
export function message(key: AuthMessageKey, locale: Locale, params: MessageParams = {}): string {
  return MESSAGES[key][locale].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
