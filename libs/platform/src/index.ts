// configuration
export { secret, isSecretSchema } from './config/secret';
export { envInt, envPort, envBoolean } from './config/env-fields';
export { loadConfig, ConfigError, type ConfigProblem, type Env } from './config/load-config';
export { redactConfig } from './config/redact-config';
export {
  baseServiceConfig,
  baseServiceConfigSchema,
  type BaseServiceConfig,
} from './config/base-service-config';

// logging
export {
  createLogger,
  LOG_LEVELS,
  type CreateLoggerOptions,
  type Logger,
  type LogLevel,
} from './logging/create-logger';
export { NestPinoLogger } from './logging/nest-logger';
export { REDACTED_FIELDS, REDACTION_CENSOR, redact, isRedactedField } from './logging/redaction';

// request context and correlation
export { currentRequestContext, runWithRequestContext, type RequestContext } from './context/request-context';
export { REQUEST_ID_HEADER, CORRELATION_ID_HEADER, generateRequestId } from './context/request-id';
export {
  currentCorrelationHeaders,
  runWithCorrelation,
  type CorrelationHeaders,
  type IncomingHeaders,
} from './context/correlation';
export { requestContextOf } from './context/request-context.hook';

// errors
export { AppException, type AppExceptionOptions, type ErrorDetails } from './errors/app.exception';
export { assertUnreachable } from './errors/assert-unreachable';
export {
  envelopeErrorRenderer,
  selectErrorRenderer,
  type ErrorRenderer,
  type ErrorRendererRoute,
  type ErrorReport,
  type RenderedError,
} from './errors/error-renderer';
export { MODEL_API_ERROR_RENDERERS } from './errors/model-api-error-renderers';
export {
  describeError,
  errorCodeForStatus,
  zodErrorMessage,
  type DescribedError,
} from './errors/describe-error';
export { PlatformExceptionFilter } from './errors/exception.filter';

// the caller's language and server messages in locale files
export {
  DEFAULT_LOCALE,
  LOCALES,
  localeFromAcceptLanguage,
  localeOfHeaders,
  type Locale,
} from './i18n/locale';
export { RequestLocale } from './i18n/request-locale.decorator';
export { localizedExceptions, type LocalizedException } from './i18n/localized-exception';
export {
  ACCESS_MESSAGE_KEYS,
  ACCESS_MESSAGES,
  accessException,
  accessMessage,
  type AccessMessageKey,
} from './i18n/access-messages';
export {
  fillPlaceholders,
  messageLookup,
  messageTableProblems,
  placeholdersOf,
  type MessageLookup,
  type MessageParams,
  type MessageTable,
  type MessageTables,
} from './i18n/message-table';

// health
export {
  HealthRegistry,
  type ReadinessCheck,
  type ReadinessFailure,
  type ReadinessReport,
} from './health/health.registry';

// metrics
export {
  METRICS,
  type MetricDefinition,
  type MetricKey,
  type MetricKeyOfType,
  type MetricLabel,
  type MetricType,
} from './metrics/metrics.catalog';
export { MetricsService } from './metrics/metrics.service';

// tracing (the process's OpenTelemetry SDK is started by @tollgate/runtime)
export { isTracingEnabled, setTracingEnabled } from './telemetry/tracing-state';

// internal identity
export { Role, hasRole } from './identity/role';
export { identitySchema, type Identity, type IdentityVia } from './identity/identity';
export {
  INTERNAL_IDENTITY_HEADER,
  INTERNAL_TOKEN_TTL_SECONDS,
  InvalidInternalTokenError,
  signInternalToken,
  verifyInternalToken,
  type SignInternalTokenOptions,
  type VerifyInternalTokenOptions,
} from './identity/internal-token';
export { InternalIdentityGuard } from './identity/internal-identity.guard';
export { MINIMUM_ROLE, Public, Roles, CurrentIdentity } from './identity/identity.decorators';
export { identityOf } from './identity/request-identity';

// application
export { PlatformModule, type PlatformModuleOptions } from './app/platform.module';
export { LOGGER, SERVICE_CONFIG, InjectLogger, InjectServiceConfig } from './app/platform.tokens';
export {
  createServiceApp,
  DEFAULT_BODY_LIMIT_BYTES,
  LISTEN_BACKLOG,
  type ServiceApp,
  type ServiceAppOptions,
} from './app/create-service-app';

// secrets and service-to-service calls
export { parseMasterKey, deriveKey } from './security/master-key';
export { SecretBox, SealedTextError } from './security/secret-box';
export { SERVICE_TOKEN_HEADER, ServiceTokenSigner, verifyServiceToken } from './security/service-token';
export {
  answerData,
  ServiceCaller,
  type ServiceAnswer,
  type ServiceCallOptions,
} from './security/service-caller';
export { ServiceOnly, ServiceTokenGuard } from './security/service-only.guard';
export {
  NON_PUBLIC_RANGES,
  envAddressRanges,
  nonPublicRangeOf,
  parseAllowedRanges,
  refusedRangeOf,
  type NonPublicRange,
} from './security/network-ranges';
