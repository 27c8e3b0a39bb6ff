import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A response as the contract checks it. */
export interface WireResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One OpenAPI operation or webhook, for checking what crosses the wire against the document. */
export class OpenApiContract {
  readonly #document: any;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(document: Record<string, unknown>) {
    this.#document = document;
    // The document is one schema resource: every `#/components/...` inside it resolves against it.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.#ajv);
    this.#ajv.addSchema(document, 'openapi');
  }

  /**
   * The problems of `response` as an answer of `method path` (path as the document writes it):
   * a status the operation does not list, a required header missing or malformed, a body that
   * does not fit. Empty when it conforms.
   */
  responseProblems(method: string, path: string, response: WireResponse): string[] {
    const operationPointer = `/paths/${escape(path)}/${method.toLowerCase()}`;
    const operation = this.#at(operationPointer);
    if (operation === undefined) return [`the document has no operation ${method} ${path}`];
    let pointer = `${operationPointer}/responses/${response.status}`;
    let answer = this.#at(pointer);
    if (answer === undefined) return [`${method} ${path} does not list the status ${response.status}`];
    if (typeof answer.$ref === 'string') {
      pointer = answer.$ref.slice(1);
      answer = this.#at(pointer);
    }
    return [
      ...this.#headerProblems(answer.headers ?? {}, response.headers),
      ...this.#schemaProblems(`${pointer}/content/application~1json/schema`, response.body, 'body'),
    ];
  }

  /** The problems of a webhook delivery of `kind`: its signature header and its payload. */
  webhookProblems(kind: string, headers: Headers, body: unknown): string[] {
    const pointer = `/webhooks/${escape(kind)}/post`;
    if (this.#at(pointer) === undefined) return [`the document has no webhook ${kind}`];
    const signature = this.#at('/components/parameters/ServiceSignature');
    const value = headers.get(signature.name);
    const problems =
      value === null
        ? [`the ${signature.name} header is missing`]
        : this.#valueProblems(signature.schema, value, signature.name);
    return [
      ...problems,
      ...this.#schemaProblems(`${pointer}/requestBody/content/application~1json/schema`, body, 'body'),
    ];
  }

  #headerProblems(declared: Record<string, any>, headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, entry] of Object.entries(declared)) {
      const header = typeof entry.$ref === 'string' ? this.#at(entry.$ref.slice(1)) : entry;
      const value = headers.get(name);
      if (value === null) {
        if (header.required === true) problems.push(`the required header ${name} is missing`);
        continue;
      }
      problems.push(...this.#valueProblems(header.schema, value, name));
    }
    return problems;
  }

  /** A header's text checked against its schema (integers are written as digits). */
  #valueProblems(schema: any, value: string, name: string): string[] {
    const typed = schema.type === 'integer' ? (/^\d+$/.test(value) ? Number(value) : value) : value;
    const validate = this.#ajv.compile(schema);
    return validate(typed) ? [] : [`header ${name}: ${value} ${this.#ajv.errorsText(validate.errors)}`];
  }

  #schemaProblems(pointer: string, value: unknown, label: string): string[] {
    let validate = this.#compiled.get(pointer);
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: `openapi#${pointer}` });
      this.#compiled.set(pointer, validate);
    }
    if (validate(value)) return [];
    // ajv's text leaves out which property was not allowed; the name is the point of such an error.
    const errors = validate.errors!.map((error) =>
      typeof error.params.additionalProperty === 'string'
        ? { ...error, message: `${error.message}: ${error.params.additionalProperty}` }
        : error,
    );
    return [`${label}: ${this.#ajv.errorsText(errors, { dataVar: label })}`];
  }

  #at(pointer: string): any {
    let node = this.#document;
    for (const part of pointer.split('/').slice(1)) {
      node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node;
  }
}

/**
 * A copy of `document` in which every object schema that names its properties, or says nothing
 * of them, allows no others (maps, whose `additionalProperties` say what each value is, stay
 * open): what an answer carries must all be declared.
 */
export function closedDocument<T>(document: T): T {
  const close = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(close);
    else if (typeof node === 'object' && node !== null) {
      const schema = node as Record<string, unknown>;
      const named = typeof schema.properties === 'object' && schema.properties !== null;
      if (named || (schema.type === 'object' && schema.additionalProperties === undefined))
        schema.additionalProperties = false;
      Object.values(schema).forEach(close);
    }
  };
  const copy = structuredClone(document);
  close(copy);
  return copy;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
