// apps/api fixed files: bootstrap, root module, guard, interceptor, decorators, exception filter.

/** Paths (under apps/api/src) and contents of the shared Nest files; `modules` lists the feature modules. */
export const NEST_COMMON_FILES = [
  "main.ts",
  "app.module.ts",
  "common/guards/auth.guard.ts",
  "common/interceptors/logging.interceptor.ts",
  "common/decorators/current-user.decorator.ts",
  "common/filters/http-exception.filter.ts",
] as const;

export function renderNestCommon(file: (typeof NEST_COMMON_FILES)[number], modules: readonly { name: string; specifier: string }[]): string {
  switch (file) {
    case "main.ts":
      return `import "reflect-metadata";
import { ValidationPipe } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";

import { AppModule } from "./app.module";
import { HttpExceptionFilter } from "@/common/filters/http-exception.filter";

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule, { bufferLogs: true });
  app.setGlobalPrefix("api");
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  app.useGlobalFilters(new HttpExceptionFilter());
  // TODO: read the port from the shared config package
  await app.listen(Number(process.env.PORT ?? 3000));
}

void bootstrap();
`;
    case "app.module.ts":
      return [
        'import { Module } from "@nestjs/common";',
        'import { ConfigModule } from "@nestjs/config";',
        'import { TypeOrmModule } from "@nestjs/typeorm";',
        "",
        ...modules.map((m) => `import { ${m.name} } from ${JSON.stringify(m.specifier)};`),
        "",
        "@Module({",
        "  imports: [",
        "    ConfigModule.forRoot({ isGlobal: true }),",
        '    TypeOrmModule.forRoot({ type: "postgres", url: process.env.DATABASE_URL, autoLoadEntities: true }),',
        ...modules.map((m) => `    ${m.name},`),
        "  ],",
        "})",
        "export class AppModule {}",
        "",
      ].join("\n");
    case "common/guards/auth.guard.ts":
      return `import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from "@nestjs/common";
import { Reflector } from "@nestjs/core";

import { IS_PUBLIC_KEY } from "../decorators/current-user.decorator";

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    const header = request.headers["authorization"];
    if (!header?.startsWith("Bearer ")) {
      throw new UnauthorizedException("Missing bearer token");
    }
    return true;
  }
}
`;
    case "common/interceptors/logging.interceptor.ts":
      return `import { type CallHandler, type ExecutionContext, Injectable, Logger, type NestInterceptor } from "@nestjs/common";
import { type Observable, tap } from "rxjs";

@Injectable()
export class LoggingInterceptor implements NestInterceptor {
  readonly #logger = new Logger(LoggingInterceptor.name);

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const started = performance.now();
    const handler = \`\${context.getClass().name}.\${context.getHandler().name}\`;
    return next.handle().pipe(tap(() => this.#logger.debug(\`\${handler} took \${Math.round(performance.now() - started)}ms\`)));
  }
}
`;
    case "common/decorators/current-user.decorator.ts":
      return `import { createParamDecorator, type ExecutionContext, SetMetadata } from "@nestjs/common";

export const IS_PUBLIC_KEY = "isPublic";

export const CurrentUser = createParamDecorator((data: keyof { id: string } | undefined, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<{ user?: { id: string } }>();
  return data ? request.user?.[data] : request.user;
});

export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);

/** Records the action in the audit log after the handler resolves. */
export function Audited(action: string): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const original = descriptor.value as (...args: unknown[]) => Promise<unknown>;
    descriptor.value = async function (this: unknown, ...args: unknown[]) {
      const result = await original.apply(this, args);
      // FIXME: send to the audit queue instead of stdout
      console.info(\`audit: \${action}\`);
      return result;
    };
    return descriptor;
  };
}
`;
    case "common/filters/http-exception.filter.ts":
      return `import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus } from "@nestjs/common";

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<{ status(code: number): { json(body: unknown): void } }>();
    const status = exception instanceof HttpException ? exception.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
    response.status(status).json({
      statusCode: status,
      message: exception instanceof Error ? exception.message : "Внутренняя ошибка сервера",
    });
  }
}
`;
  }
}
