/** The machine and date a benchmark ran on, and a writer for one section of a shared results file. */
import os from 'node:os';
import fs from 'node:fs';

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

export const today = (): string => new Date().toISOString().slice(0, 10);

/** Replaces (or appends) the section between `<!-- name:start -->` and `<!-- name:end -->`. */
export function writeSection(file: string, name: string, body: string, title = '# Benchmarks\n'): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : title;
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  const next = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
}

/** A tool's `--name value` option from its command line, or the fallback. */
export function option(name: string, fallback: string, args: string[] = process.argv.slice(2)): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
}
