// An MCP server's form (elicitation): the values the person types, kept as text until sent, their
// checks (the MCP specification's constraints: required, length, format, range, whole numbers,
// options, how many of several), and the content sent back with "accept". The engine checks the
// content again before it reaches the server.
import type { ElicitationField, FieldKind, StringFormat } from '../generated/protocol';

/** A field's value as the form holds it: text for text and number fields, a flag, or chosen options. */
export type FieldValue = string | boolean | string[];

/** The values a form starts with: the defaults the server gave, else empty. */
export function initialValues(fields: readonly ElicitationField[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of fields) values[field.name] = initialValue(field.kind);
  return values;
}

function initialValue(kind: FieldKind): FieldValue {
  switch (kind.type) {
    case 'string':
      return kind.default ?? '';
    case 'number':
      return kind.default === null ? '' : String(kind.default);
    case 'boolean':
      return kind.default ?? false;
    case 'enum':
      return kind.default ?? '';
    case 'multi_select':
      return [...kind.default];
  }
}

const isEmpty = (value: FieldValue | undefined) =>
  value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

const FORMAT_NAMES: Record<StringFormat, string> = {
  email: 'an email address',
  uri: 'a URI (such as https://example.org)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (such as 2025-01-31T09:30:00Z)',
};

function matchesFormat(format: StringFormat, text: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(text);
    case 'uri':
      try {
        new URL(text);
        return true;
      } catch {
        return false;
      }
    case 'date': {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
      if (!match) return false;
      const date = new Date(`${text}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
    }
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text) && !Number.isNaN(Date.parse(text));
  }
}

/** What is wrong with one field's value, or null. */
export function fieldProblem(field: ElicitationField, value: FieldValue | undefined): string | null {
  if (isEmpty(value)) return field.required ? 'Required' : null;
  const kind = field.kind;
  switch (kind.type) {
    case 'string': {
      const text = typeof value === 'string' ? value : '';
      const length = [...text].length;
      if (kind.min_length !== null && length < kind.min_length) return `At least ${kind.min_length} characters`;
      if (kind.max_length !== null && length > kind.max_length) return `At most ${kind.max_length} characters`;
      if (kind.format !== null && !matchesFormat(kind.format, text)) return `Must be ${FORMAT_NAMES[kind.format]}`;
      return null;
    }
    case 'number': {
      const text = typeof value === 'string' ? value.trim() : '';
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) return 'Must be a number';
      if (kind.integer && !Number.isInteger(n)) return 'Must be a whole number';
      if (kind.minimum !== null && n < kind.minimum) return `At least ${kind.minimum}`;
      if (kind.maximum !== null && n > kind.maximum) return `At most ${kind.maximum}`;
      return null;
    }
    case 'boolean':
      return null;
    case 'enum':
      return kind.options.some((option) => option.value === value) ? null : 'Pick one of the options';
    case 'multi_select': {
      const chosen = Array.isArray(value) ? value : [];
      if (kind.min_items !== null && chosen.length < kind.min_items) return `Pick at least ${kind.min_items}`;
      if (kind.max_items !== null && chosen.length > kind.max_items) return `Pick at most ${kind.max_items}`;
      return null;
    }
  }
}

/** Every field's problem, by name (fields without one are left out). */
export function formProblems(fields: readonly ElicitationField[], values: Record<string, FieldValue>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const problem = fieldProblem(field, values[field.name]);
    if (problem) problems[field.name] = problem;
  }
  return problems;
}

/** The content sent with "accept": each filled-in field as its type (numbers as numbers); empty ones left out. */
export function formContent(fields: readonly ElicitationField[], values: Record<string, FieldValue>): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (isEmpty(value) && field.kind.type !== 'boolean') continue;
    content[field.name] = field.kind.type === 'number' && typeof value === 'string' ? Number(value.trim()) : value;
  }
  return content;
}
