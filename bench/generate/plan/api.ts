// apps/api: NestJS-style feature modules of seven files each (controller, service, module, two DTOs,
// entity, spec); leftovers become helpers under src/common/utils. Imports use the `@/*` alias.

import { externalImportsFor, planPackageExports } from "../code/package-module.js";
import { NOUNS, kebab, pascal } from "../names.js";
import type { ImportSpec, SourceModule, SymbolKind, Workspace } from "../model.js";
import { dedupeExternal, importWorkspace } from "./link.js";
import { moduleUnits, type PlanContext } from "./packages.js";

export const API_DOMAIN_FILES = 7;

export interface ApiPlan {
  modules: SourceModule[];
  /** Feature modules for app.module.ts. */
  featureModules: { name: string; specifier: string }[];
}

function named(from: string, names: readonly string[], kind: SymbolKind = "function"): ImportSpec {
  return { from, named: names.map((name) => ({ name, kind })) };
}

export function planApi(ctx: PlanContext, api: Workspace, count: number): ApiPlan {
  const { rng, names } = ctx;
  const plan: ApiPlan = { modules: [], featureModules: [] };
  const usedNouns = new Set<string>();
  let remaining = count;

  while (remaining >= API_DOMAIN_FILES) {
    let noun = rng.pick(NOUNS) as string;
    for (let n = 2; usedNouns.has(noun); n++) noun = `${rng.pick(NOUNS)}-${rng.pick(NOUNS)}`;
    usedNouns.add(noun);
    const P = pascal(noun.split("-"));
    const route = `${noun}s`;
    const dir = `${api.dir}/src/modules/${route}`;
    const refs = {
      route,
      table: route.replace(/-/g, "_"),
      controller: names.claim(`${P}sController`),
      service: names.claim(`${P}sService`),
      module: names.claim(`${P}sModule`),
      createDto: names.claim(`Create${P}Dto`),
      updateDto: names.claim(`Update${P}Dto`),
      entity: names.claim(`${P}Entity`),
    };
    const file = {
      controller: `${dir}/${route}.controller.ts`,
      service: `${dir}/${route}.service.ts`,
      module: `${dir}/${route}.module.ts`,
      createDto: `${dir}/dto/create-${noun}.dto.ts`,
      updateDto: `${dir}/dto/update-${noun}.dto.ts`,
      entity: `${dir}/entities/${noun}.entity.ts`,
      spec: `${dir}/${route}.service.spec.ts`,
    };
    const make = (path: string, template: string, exports: SourceModule["exports"], imports: ImportSpec[], extra: Record<string, string> = {}): SourceModule => ({
      path,
      template,
      words: [noun],
      units: Math.max(0, Math.round(moduleUnits(rng) / 2)),
      exports,
      imports,
      refs: { ...refs, ...extra },
    });
    const cls = (name: string, role: string) => [{ name, kind: "class" as const, role }];

    const serviceTaken = new Set<string>([refs.service, "Injectable", "Logger", "NotFoundException", "InjectRepository", "Repository", refs.entity, refs.createDto, refs.updateDto]);
    const serviceDeps = rng.sample(api.deps, rng.int(0, 2)).flatMap((dep) => importWorkspace(rng, file.service, dep, serviceTaken, "bundler") ?? []);
    const previousModule = plan.featureModules.length > 0 && rng.chance(0.3) ? rng.pick(plan.featureModules) : undefined;

    plan.modules.push(
      make(file.entity, "nest-entity", cls(refs.entity, "entity"), [named("typeorm", ["Column", "CreateDateColumn", "Entity", "Index", "PrimaryGeneratedColumn"])]),
      make(file.createDto, "nest-dto", cls(refs.createDto, "dto"), [named("class-validator", ["IsArray", "IsBoolean", "IsInt", "IsOptional", "IsString", "MaxLength", "Min"])]),
      make(file.updateDto, "nest-update-dto", cls(refs.updateDto, "dto"), [named("@nestjs/mapped-types", ["PartialType"]), named(`./create-${noun}.dto`, [refs.createDto], "class")]),
      make(file.service, "nest-service", cls(refs.service, "service"), [
        named("@nestjs/common", ["Injectable", "Logger", "NotFoundException"]),
        named("@nestjs/typeorm", ["InjectRepository"]),
        named("typeorm", ["Repository"], "class"),
        ...serviceDeps,
        named(`./entities/${noun}.entity`, [refs.entity], "class"),
        { from: `./dto/create-${noun}.dto`, named: [{ name: refs.createDto, kind: "class" }], typeOnly: true },
        { from: `./dto/update-${noun}.dto`, named: [{ name: refs.updateDto, kind: "class" }], typeOnly: true },
      ]),
      make(file.controller, "nest-controller", cls(refs.controller, "controller"), [
        named("@nestjs/common", ["Body", "Controller", "Delete", "Get", "HttpCode", "HttpStatus", "Param", "ParseUUIDPipe", "Patch", "Post", "Put", "Query", "UseGuards", "UseInterceptors"]),
        named("@/common/decorators/current-user.decorator", ["Audited", "CurrentUser"]),
        named("@/common/guards/auth.guard", ["AuthGuard"], "class"),
        named("@/common/interceptors/logging.interceptor", ["LoggingInterceptor"], "class"),
        named(`./${route}.service`, [refs.service], "class"),
        named(`./dto/create-${noun}.dto`, [refs.createDto], "class"),
        named(`./dto/update-${noun}.dto`, [refs.updateDto], "class"),
      ]),
      make(
        file.module,
        "nest-module",
        cls(refs.module, "module"),
        [
          named("@nestjs/common", ["Module"]),
          named("@nestjs/typeorm", ["TypeOrmModule"], "class"),
          ...(previousModule ? [named(previousModule.specifier.replace("./modules/", "../"), [previousModule.name], "class")] : []),
          named(`./${route}.controller`, [refs.controller], "class"),
          named(`./${route}.service`, [refs.service], "class"),
          named(`./entities/${noun}.entity`, [refs.entity], "class"),
        ],
        { imports: previousModule?.name ?? "" },
      ),
      make(file.spec, "nest-spec", [], [
        named("@nestjs/testing", ["Test"], "class"),
        { from: "@nestjs/testing", named: [{ name: "TestingModule", kind: "interface" }], typeOnly: true },
        named("@nestjs/typeorm", ["getRepositoryToken"]),
        named(`./${route}.service`, [refs.service], "class"),
        named(`./entities/${noun}.entity`, [refs.entity], "class"),
      ]),
    );
    plan.featureModules.push({ name: refs.module, specifier: `./modules/${route}/${route}.module` });
    remaining -= API_DOMAIN_FILES;
  }

  // Fewer than seven files left: plain helpers, so no feature module is ever half-written.
  for (let i = 0; i < remaining; i++) {
    const words = [rng.pick(NOUNS), rng.pick(["utils", "helpers", "mapper", "format"])];
    const units = moduleUnits(rng);
    const exports = planPackageExports("utils", words, units, names, rng);
    const taken = new Set(exports.map((e) => e.name));
    plan.modules.push({ path: `${api.dir}/src/common/utils/${kebab(words)}-${i}.ts`, template: "utils", words, units, exports, imports: dedupeExternal(externalImportsFor(exports, rng), taken) });
  }
  return plan;
}
