import type { FastifyRequest } from 'fastify';
import { requestContextOf } from '../context/request-context.hook';
import type { Identity } from './identity';

const identities = new WeakMap<FastifyRequest, Identity>();

export const identityOf = (request: FastifyRequest): Identity | undefined => identities.get(request);

/** Remembers the verified caller for the handler and for every log line of the request. */
export const attachIdentity = (request: FastifyRequest, identity: Identity): void => {
  identities.set(request, identity);
  const context = requestContextOf(request);
  if (context) context.identity = identity;
};
