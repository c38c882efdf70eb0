import { Inject } from '@nestjs/common';

/** The service's pino logger. */
export const LOGGER = Symbol('tollgate:logger');
/** The service's validated configuration, as given to createServiceApp. */
export const SERVICE_CONFIG = Symbol('tollgate:service-config');

export const InjectLogger = (): PropertyDecorator & ParameterDecorator => Inject(LOGGER);
export const InjectServiceConfig = (): PropertyDecorator & ParameterDecorator => Inject(SERVICE_CONFIG);
