import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { fastifyTrustProxy, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import { clientErrorHandler, errorHandlerPlugin, frameworkErrorHandler } from './plugins/error-handler.ts';
import { authPlugin } from './plugins/auth.ts';
import { healthRoutes, type Readiness } from './plugins/health.ts';
import { webAppPlugin } from './plugins/web-app.ts';
import { registerFeatures } from './features/index.ts';
import { API_DOCS_DESCRIPTION } from './plugins/api-docs.ts';
import { routeInventoryPlugin } from './plugins/route-inventory.ts';
import { hardenDocsCsp, securityHeadersPlugin } from './plugins/security-headers.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { inputGuardPlugin } from './plugins/input-guard.ts';
import { loginThrottlePlugin } from './features/auth/login-throttle.ts';
import { twoFactorPlugin } from './features/auth/two-factor.plugin.ts';
import { rollIndexPlugin } from './features/search/roll-index/roll-index.plugin.ts';
import type { RollIndexRegistry } from './features/search/roll-index/roll-index.registry.ts';
import { parcelsPlugin } from './features/parcels/parcels.plugin.ts';
import type { ParcelsService } from './features/parcels/parcels.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /** What the node finishes before it takes traffic (plugins/health.ts, /readyz). */
    readiness: Readiness;
    /** The node's in-process search indexes (roll-index.plugin.ts); null when SEARCH_INDEX is off. */
    rollIndexes: RollIndexRegistry | null;
    /** Parcel shapes, map boxes and abutters, with their in-process indexes (parcels.plugin.ts). */
    parcels: ParcelsService;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Extra logger destination (tests read the log output). */
  logStream?: NodeJS.WritableStream;
}

/** Builds the whole portal without listening: server.ts listens, tests use app.inject(). */
export async function buildApp({ config, database, logStream }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent' && !logStream
        ? false
        : {
            level: config.logLevel === 'silent' ? 'info' : config.logLevel,
            ...(logStream ? { stream: logStream } : {}),
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'req.body.Password',
                'req.body.password',
                'req.body.CurrentPassword',
              ],
              censor: '[redacted]',
            },
          },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Query strings, paths and bodies nest only as deep as the contracts need.
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    genReqId: () => crypto.randomUUID(),
    // Errors answered before the error handler runs keep the ErrorBody contract too (issue 37).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);

  await app.register(routeInventoryPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.providerName} API`, version: '1.0.0', description: API_DOCS_DESCRIPTION },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'The accessToken from POST /api/login' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (csp) => hardenDocsCsp(csp, config.hsts),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(loginThrottlePlugin);
  await app.register(twoFactorPlugin);
  await app.register(healthRoutes);
  await app.register(rollIndexPlugin);
  await app.register(parcelsPlugin);
  await app.register(registerFeatures, { prefix: '/api' });
  await app.register(webAppPlugin);
  return app;
}
