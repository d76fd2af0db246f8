// apps/api: NestJS-style controllers, services, modules, DTOs and entities (decorators everywhere).

import { FIELD_NAMES, NOUNS, VERBS, camel, pascal } from "../names.js";
import { Rng } from "../prng.js";
import type { SourceModule } from "../model.js";
import { importedCalls, importedTypeNames, renderImportBlock } from "./imports.js";
import { comment, expression, newScope, statements, stringLiteral } from "./statements.js";
import { doc } from "./ts-types.js";

function indent(lines: string[], by = "  "): string[] {
  return lines.map((line) => (line === "" ? line : by + line));
}

function ref(module: SourceModule, key: string): string {
  const value = module.refs?.[key];
  if (value === undefined) throw new Error(`${module.path}: missing ref "${key}"`);
  return value;
}

function controller(module: SourceModule, rng: Rng): string[] {
  const service = ref(module, "service");
  const field = camel([service]);
  const out = [`@Controller(${JSON.stringify(ref(module, "route"))})`];
  if (rng.chance(0.7)) out.push("@UseGuards(AuthGuard)");
  if (rng.chance(0.3)) out.push("@UseInterceptors(LoggingInterceptor)");
  out.push(`export class ${ref(module, "controller")} {`, `  constructor(private readonly ${field}: ${service}) {}`, "");
  const members: string[][] = [
    ["@Get()", `async findAll(@Query("page") page = "1", @Query("limit") limit = "20", @CurrentUser() user?: { id: string }) {`, `  return this.${field}.findAll({ page: Number(page), limit: Number(limit), ownerId: user?.id });`, "}"],
    ['@Get(":id")', `findOne(@Param("id", ParseUUIDPipe) id: string) {`, `  return this.${field}.findOne(id);`, "}"],
    ["@Post()", "@HttpCode(HttpStatus.CREATED)", `create(@Body() dto: ${ref(module, "createDto")}) {`, `  return this.${field}.create(dto);`, "}"],
    ['@Patch(":id")', `update(@Param("id") id: string, @Body() dto: ${ref(module, "updateDto")}) {`, `  return this.${field}.update(id, dto);`, "}"],
    ['@Delete(":id")', "@HttpCode(204)", "async remove(@Param(\"id\") id: string): Promise<void> {", `  await this.${field}.remove(id);`, "}"],
  ];
  const taken = new Set<string>(["findAll", "findOne", "create", "update", "remove"]);
  for (let i = 0; i < module.units; i++) {
    const noun = rng.pick(NOUNS);
    let name = `${camel([rng.pick(VERBS), noun])}s`;
    while (taken.has(name)) name = `${name}X`;
    taken.add(name);
    const scope = newScope(rng, { ts: true, async: true, params: ["id", "body"], calls: [] });
    members.push([
      `@${rng.pick(["Get", "Post", "Put"])}(":id/${noun}s")`,
      ...(rng.chance(0.3) ? [`@Audited(${JSON.stringify(name)})`] : []),
      `async ${name}(@Param("id") id: string, @Body() body: Record<string, unknown> = {}) {`,
      ...indent(statements(scope, rng.skewedInt(3, 0.5, 1, 8))),
      `  return this.${field}.findOne(id);`,
      "}",
    ]);
  }
  out.push(...members.flatMap((m, i) => [...(i > 0 ? [""] : []), ...indent(m)]), "}");
  return out;
}

function service(module: SourceModule, rng: Rng): string[] {
  const entity = ref(module, "entity");
  const name = ref(module, "service");
  const calls = importedCalls(module.imports);
  const out = ["@Injectable()", `export class ${name} {`, `  private readonly logger = new Logger(${name}.name);`, ""];
  out.push(`  constructor(@InjectRepository(${entity}) private readonly repository: Repository<${entity}>) {}`, "");
  const members: string[][] = [
    [`async findAll(query: { page: number; limit: number; ownerId?: string }): Promise<${entity}[]> {`, "  return this.repository.find({ skip: (query.page - 1) * query.limit, take: query.limit });", "}"],
    [`async findOne(id: string): Promise<${entity}> {`, "  const entity = await this.repository.findOne({ where: { id } });", `  if (!entity) throw new NotFoundException(\`${pascal([ref(module, "route")])} \${id} not found\`);`, "  return entity;", "}"],
    [`async create(dto: ${ref(module, "createDto")}): Promise<${entity}> {`, "  const entity = this.repository.create({ ...dto });", `  this.logger.log(${stringLiteral(rng)});`, "  return this.repository.save(entity);", "}"],
    [`async update(id: string, dto: ${ref(module, "updateDto")}): Promise<${entity}> {`, "  const current = await this.findOne(id);", "  return this.repository.save({ ...current, ...dto });", "}"],
    ["async remove(id: string): Promise<void> {", "  await this.repository.delete(id);", "}"],
  ];
  for (let i = 0; i < module.units; i++) {
    const scope = newScope(rng, { ts: true, async: true, params: ["input", "this.repository"], calls });
    members.push([
      ...(rng.chance(0.2) ? [comment(rng)] : []),
      `async ${camel([rng.pick(VERBS), rng.pick(NOUNS), `${i}`])}(input: ${importedTypeNames(module.imports.filter((spec) => spec.from.startsWith("@acme/")))[0] ?? "unknown"}): Promise<unknown> {`,
      ...indent(statements(scope, rng.skewedInt(4, 0.5, 1, 10))),
      `  return ${expression(scope)};`,
      "}",
    ]);
  }
  out.push(...members.flatMap((m, i) => [...(i > 0 ? [""] : []), ...indent(m)]), "}");
  return out;
}

function dto(module: SourceModule, rng: Rng): string[] {
  const out = [...doc(rng, "Request body"), `export class ${ref(module, "createDto")} {`];
  const fields = rng.sample(FIELD_NAMES.filter((f) => f !== "id"), Math.min(20, 2 + module.units));
  fields.forEach((field, i) => {
    if (i > 0) out.push("");
    const optional = rng.chance(0.35);
    if (optional) out.push("  @IsOptional()");
    const kind = rng.pick(["string", "number", "boolean", "array"] as const);
    if (kind === "string") out.push("  @IsString()", `  @MaxLength(${rng.int(16, 512)})`);
    if (kind === "number") out.push("  @IsInt()", `  @Min(${rng.int(0, 5)})`);
    if (kind === "boolean") out.push("  @IsBoolean()");
    if (kind === "array") out.push("  @IsArray()", "  @IsString({ each: true })");
    const type = kind === "array" ? "string[]" : kind;
    out.push(`  readonly ${field}${optional ? "?" : "!"}: ${type};`);
  });
  out.push("}");
  return out;
}

function entity(module: SourceModule, rng: Rng): string[] {
  const out = [`@Entity({ name: ${JSON.stringify(ref(module, "table"))} })`];
  if (rng.chance(0.5)) out.push('@Index(["ownerId", "createdAt"])');
  out.push(`export class ${ref(module, "entity")} {`, '  @PrimaryGeneratedColumn("uuid")', "  id!: string;", "");
  for (const field of rng.sample(FIELD_NAMES.filter((f) => f !== "id" && f !== "createdAt"), Math.min(20, 2 + module.units))) {
    const numeric = rng.chance(0.4);
    out.push(numeric ? `  @Column({ type: "int", default: ${rng.int(0, 10)} })` : `  @Column({ type: "varchar", length: ${rng.int(16, 255)}, nullable: ${rng.chance(0.3)} })`);
    out.push(`  ${field}!: ${numeric ? "number" : "string"};`, "");
  }
  out.push("  @CreateDateColumn()", "  createdAt!: Date;", "}");
  return out;
}

export function renderNestModule(module: SourceModule, seed: number): string {
  const rng = Rng.forKey(seed, module.path);
  const out = [...renderImportBlock(module.imports, rng, true), ""];
  switch (module.template) {
    case "nest-controller":
      out.push(...controller(module, rng));
      break;
    case "nest-service":
      out.push(...service(module, rng));
      break;
    case "nest-dto":
      out.push(...dto(module, rng));
      break;
    case "nest-update-dto":
      out.push(`export class ${ref(module, "updateDto")} extends PartialType(${ref(module, "createDto")}) {}`);
      break;
    case "nest-entity":
      out.push(...entity(module, rng));
      break;
    case "nest-module": {
      const extraImports = (module.refs?.["imports"] ?? "").split(",").filter(Boolean);
      out.push(
        "@Module({",
        `  imports: [${[`TypeOrmModule.forFeature([${ref(module, "entity")}])`, ...extraImports].join(", ")}],`,
        `  controllers: [${ref(module, "controller")}],`,
        `  providers: [${ref(module, "service")}],`,
        `  exports: [${ref(module, "service")}],`,
        "})",
        `export class ${ref(module, "module")} {}`,
      );
      break;
    }
    case "nest-spec": {
      const name = ref(module, "service");
      out.push(
        `describe(${JSON.stringify(name)}, () => {`,
        `  let service: ${name};`,
        "",
        "  beforeEach(async () => {",
        "    const moduleRef: TestingModule = await Test.createTestingModule({",
        `      providers: [${name}, { provide: getRepositoryToken(${ref(module, "entity")}), useValue: { find: jest.fn(async () => []) } }],`,
        "    }).compile();",
        `    service = moduleRef.get(${name});`,
        "  });",
        "",
        '  it("is defined", () => {',
        "    expect(service).toBeDefined();",
        "  });",
      );
      for (let i = 0; i < module.units; i++) {
        out.push("", `  it(${JSON.stringify(`${rng.pick(VERBS)}s ${rng.pick(NOUNS)}`)}, async () => {`, `    await expect(service.findAll({ page: ${rng.int(1, 5)}, limit: ${rng.int(5, 50)} })).resolves.toEqual([]);`, "  });");
      }
      out.push("});");
      break;
    }
    default:
      throw new Error(`unknown nest template ${module.template}`);
  }
  out.push("");
  return out.join("\n");
}
