import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClassicLevel } from 'classic-level';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  BizMsgError,
  createStatusTracker,
  fileStatusStore,
  InvalidArgumentError,
  StatusStoreBusyError,
  type StatusChange,
  type StatusRecord,
  type StatusStore,
  type WebhookEvent,
} from '../../../src/webhooks/index.js';
import { fileStatusStore as webFileStatusStore } from '../../../src/webhooks/web.js';

// fileStatusStore on a real folder: records survive a close, a reopen and a process that exits
// without closing; one process at a time has the folder (a second store of this process, or another
// process, is refused with StatusStoreBusyError); records expire after `ttl`.

const root = mkdtempSync(join(tmpdir(), 'bizmsg-status-'));
let folders = 0;
/** A fresh folder for one test (not created: the store creates it). */
const folder = () => join(root, `store-${(folders += 1)}`);
/** Stores a test opened, closed after it so that a failing test leaves no folder locked. */
const opened: StatusStore[] = [];
const open = (path: string, options?: Parameters<typeof fileStatusStore>[1]) => {
  const store = fileStatusStore(path, options);
  opened.push(store);
  return store;
};

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CHILD = fileURLToPath(new URL('./file-store-process.ts', import.meta.url));

/** Runs file-store-process.ts with `args`; resolves once it printed its first line, with that line. */
function child(args: { path: string; act: 'merge' | 'hold' | 'open'; changes?: StatusChange[] }) {
  const process_ = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = new Promise<string>((resolve, reject) => {
    let out = '';
    process_.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    process_.once('exit', (code) => reject(new Error(`the child exited with ${code} before it printed a line`)));
  });
  return { process: process_, line };
}

const exited = (process_: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (process_.exitCode !== null) resolve(process_.exitCode);
    else process_.once('exit', resolve);
  });

const event = (kind: 'sent' | 'delivered' | 'read' | 'failed', id: string, at: string): WebhookEvent =>
  ({
    event: `message.${kind}`,
    timestamp: at,
    data: { message_id: id, to: '4915112345678', status: kind, [`${kind}_at`]: at },
  }) as WebhookEvent;

describe('fileStatusStore keeps records on disk', () => {
  it('keeps them across a close and a reopen, by the same rule: a status never moves back', async () => {
    const path = folder();
    const store = open(path);
    await store.merge({ id: 'm1', status: 'sent', to: '+4915112345678', sentAt: '2026-05-01T10:00:00.000Z' });
    await store.merge({ id: 'm1', status: 'read', readAt: '2026-05-01T10:00:09.000Z' });
    const late = await store.merge({ id: 'm1', status: 'delivered', deliveredAt: '2026-05-01T10:00:05.000Z' });
    const expected: StatusRecord = {
      id: 'm1',
      status: 'read',
      to: '+4915112345678',
      sentAt: '2026-05-01T10:00:00.000Z',
      deliveredAt: '2026-05-01T10:00:05.000Z',
      readAt: '2026-05-01T10:00:09.000Z',
    };
    expect(late).toEqual(expected);
    await store.close();

    const reopened = open(path);
    expect(await reopened.get('m1')).toEqual(expected);
    expect(await reopened.merge({ id: 'm1', status: 'delivered', deliveredAt: '2026-05-01T10:00:01.000Z' })).toEqual({
      ...expected,
      deliveredAt: '2026-05-01T10:00:01.000Z',
    });
    expect(await reopened.get('unknown')).toBeUndefined();
  });

  it('serves a status tracker: events applied, the app restarted, the statuses still there', async () => {
    const path = folder();
    const tracker = createStatusTracker({ store: open(path) });
    await tracker.track({ id: 'msg_1', to: '+49 151 12345678', status: 'sent', created_at: '2026-05-01T10:00:00Z' });
    await tracker.track({ id: 'msg_2', to: '+49 151 12345679', status: 'sent', created_at: '2026-05-01T10:00:00Z' });
    await tracker.apply(event('read', 'msg_1', '2026-05-01T10:01:00Z'));
    await tracker.apply(event('delivered', 'msg_1', '2026-05-01T10:00:30Z'));
    await tracker.apply(event('failed', 'msg_2', '2026-05-01T10:00:40Z'));
    await tracker.close();

    const restarted = createStatusTracker({ store: open(path) });
    expect(await restarted.get('msg_1')).toEqual({
      id: 'msg_1',
      to: '+49 151 12345678',
      status: 'read',
      sentAt: '2026-05-01T10:00:00.000Z',
      deliveredAt: '2026-05-01T10:00:30.000Z',
      readAt: '2026-05-01T10:01:00.000Z',
    });
    expect(await restarted.get('msg_2')).toMatchObject({ status: 'failed', failedAt: '2026-05-01T10:00:40.000Z' });
    expect(await restarted.summary(['msg_1', 'msg_2', 'msg_3'])).toEqual({
      total: 3,
      sent: 0,
      delivered: 0,
      read: 1,
      failed: 1,
      unknown: 1,
    });
    // A waitFor after the restart is answered from the folder.
    expect(await restarted.waitFor('msg_1', 'read', { timeout: 1000 })).toMatchObject({ status: 'read' });
  });

  it('keeps a merge that resolved in a process that then exited without closing the store', async () => {
    const path = folder();
    const changes: StatusChange[] = Array.from({ length: 20 }, (_, i) => ({
      id: `m${i}`,
      status: i % 2 === 0 ? 'delivered' : 'read',
    }));
    const run = child({ path, act: 'merge', changes });
    expect(await run.line).toBe('merged');
    expect(await exited(run.process)).toBe(0);
    const store = open(path);
    expect(await store.summary()).toEqual({ total: 20, sent: 0, delivered: 10, read: 10, failed: 0, unknown: 0 });
    expect(await store.get('m19')).toEqual({ id: 'm19', status: 'read' });
  });

  it('merges racing on one id end as merged one after the other, and a close lets them end first', async () => {
    const path = folder();
    const store = open(path);
    const changes: StatusChange[] = [
      { id: 'race', status: 'failed', failedAt: '2026-05-01T10:00:09.000Z', error: { code: 'UNDELIVERABLE' } },
      { id: 'race', status: 'sent', sentAt: '2026-05-01T10:00:00.000Z', to: '+4915112345678' },
      { id: 'race', status: 'read', readAt: '2026-05-01T10:00:05.000Z' },
      { id: 'race', status: 'delivered', deliveredAt: '2026-05-01T10:00:03.000Z' },
    ];
    const merges = [
      ...changes.map((change) => store.merge(change)),
      ...Array.from({ length: 50 }, (_, i) => store.merge({ id: `other-${i}`, status: 'sent' })),
    ];
    const closed = store.close();
    await Promise.all([...merges, closed]);
    const reopened = open(path);
    expect(await reopened.get('race')).toEqual({
      id: 'race',
      status: 'failed',
      to: '+4915112345678',
      sentAt: '2026-05-01T10:00:00.000Z',
      deliveredAt: '2026-05-01T10:00:03.000Z',
      readAt: '2026-05-01T10:00:05.000Z',
      failedAt: '2026-05-01T10:00:09.000Z',
      error: { code: 'UNDELIVERABLE' },
    });
    expect((await reopened.summary()).total).toBe(51);
  });
});

describe('summary and watch', () => {
  it('counts every record, or the ids asked for (unknown: no record)', async () => {
    const store = open(folder());
    expect(await store.summary()).toEqual({ total: 0, sent: 0, delivered: 0, read: 0, failed: 0, unknown: 0 });
    const statuses = ['sent', 'sent', 'delivered', 'read', 'read', 'read', 'failed'] as const;
    await Promise.all(statuses.map((status, i) => store.merge({ id: `m${i}`, status })));
    expect(await store.summary()).toEqual({ total: 7, sent: 2, delivered: 1, read: 3, failed: 1, unknown: 0 });
    expect(await store.summary(['m0', 'm3', 'm6', 'nope'])).toEqual({
      total: 4,
      sent: 1,
      delivered: 0,
      read: 1,
      failed: 1,
      unknown: 1,
    });
  });

  it('calls a watcher with each change of its id merged in this process, a copy each, until it stops', async () => {
    const store = open(folder());
    const heard: StatusRecord[] = [];
    const stop = await store.watch('w', (record) => {
      heard.push({ ...record });
      record.status = 'failed'; // a watcher's copy is its own
    });
    expect(await store.merge({ id: 'w', status: 'sent' })).toEqual({ id: 'w', status: 'sent' });
    await store.merge({ id: 'w', status: 'sent' }); // changes nothing: not heard
    await store.merge({ id: 'other', status: 'read' });
    await store.merge({ id: 'w', status: 'delivered', deliveredAt: '2026-05-01T10:00:03.000Z' });
    stop();
    await store.merge({ id: 'w', status: 'read' });
    expect(heard).toEqual([
      { id: 'w', status: 'sent' },
      { id: 'w', status: 'delivered', deliveredAt: '2026-05-01T10:00:03.000Z' },
    ]);
    expect(await store.get('w')).toEqual({ id: 'w', status: 'read', deliveredAt: '2026-05-01T10:00:03.000Z' });
  });
});

describe('one process at a time', () => {
  it('refuses a second store of the folder in this process, however the path is spelled, until the first closes', async () => {
    const path = folder();
    const first = open(path);
    await first.merge({ id: 'm1', status: 'sent' });
    const link = join(root, `link-${folders}`);
    symlinkSync(path, link, 'dir');
    for (const spelling of [path, `${path}/`, relative(process.cwd(), path), link]) {
      const second = open(spelling);
      const refused = second.get('m1');
      await expect(refused).rejects.toThrow(StatusStoreBusyError);
      await expect(refused).rejects.toMatchObject({
        name: 'StatusStoreBusyError',
        path: spelling,
        message: expect.stringMatching(/one process at a time/),
      });
      await expect(second.merge({ id: 'm2', status: 'sent' })).rejects.toThrow(StatusStoreBusyError);
      expect(StatusStoreBusyError.is(await refused.catch((error: unknown) => error))).toBe(true);
    }
    await first.close();
    const second = open(path);
    expect(await second.get('m1')).toEqual({ id: 'm1', status: 'sent' });
  });

  it('refuses the folder another process holds, and serves it once that process let go', async () => {
    const path = folder();
    const holder = child({ path, act: 'hold' });
    expect(await holder.line).toBe('open');
    const store = open(path);
    const refused = store.get('m1');
    await expect(refused).rejects.toThrow(StatusStoreBusyError);
    await expect(refused).rejects.toThrow(path);
    holder.process.stdin.end();
    expect(await exited(holder.process)).toBe(0);
    // The same store tries again at its next call.
    expect(await store.merge({ id: 'm1', status: 'delivered' })).toEqual({ id: 'm1', status: 'delivered' });
  });

  it('is refused to another process while this one holds the folder', async () => {
    const path = folder();
    const store = open(path);
    await store.get('m1');
    const other = child({ path, act: 'open' });
    const answer = JSON.parse(await other.line) as { error?: string; message?: string };
    expect(answer).toEqual({ error: 'StatusStoreBusyError', message: expect.stringContaining(path) });
    await store.close();
    expect(JSON.parse(await child({ path, act: 'open' }).line)).toEqual({ opened: true });
  });
});

describe('ttl', () => {
  const T0 = Date.parse('2026-05-01T10:00:00Z');

  it('forgets a record `ttl` ms after its last change: it reads as absent, counts as none and merges afresh', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const store = open(folder(), { ttl: 1000 });
    await store.merge({ id: 'old', status: 'read' });
    vi.setSystemTime(T0 + 500);
    await store.merge({ id: 'kept', status: 'sent' });
    await store.merge({ id: 'kept', status: 'delivered' }); // its last change: T0 + 500
    vi.setSystemTime(T0 + 999);
    expect(await store.get('old')).toEqual({ id: 'old', status: 'read' });
    vi.setSystemTime(T0 + 1000);
    expect(await store.get('old')).toBeUndefined();
    expect(await store.get('kept')).toEqual({ id: 'kept', status: 'delivered' });
    expect(await store.summary()).toMatchObject({ total: 1, delivered: 1 });
    expect(await store.summary(['old', 'kept'])).toMatchObject({ total: 2, delivered: 1, unknown: 1 });
    // A change that changes nothing keeps the time of the last one.
    await store.merge({ id: 'kept', status: 'sent' });
    vi.setSystemTime(T0 + 1500);
    expect(await store.get('kept')).toBeUndefined();
    expect(await store.merge({ id: 'old', status: 'delivered' })).toEqual({ id: 'old', status: 'delivered' });
  });

  it('drops the expired records from the folder, keeping the live ones', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const path = folder();
    const store = open(path, { ttl: 1000 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.merge({ id: `gone-${i}`, status: 'sent' })));
    // Past the ttl of those, and past the least time between two sweeps (a minute).
    vi.setSystemTime(T0 + 61_000);
    await store.merge({ id: 'live', status: 'sent' });
    await store.close(); // lets the sweep under way end
    const db = new ClassicLevel(path, { valueEncoding: 'json' });
    try {
      const keys = await db.keys().all();
      expect(keys).toHaveLength(2); // the live record and its time
      expect(keys.every((key) => key.endsWith('live'))).toBe(true);
    } finally {
      await db.close();
    }
  });
});

describe('arguments, opening and closing', () => {
  it.each([[''], [42], [undefined], [null], [['./statuses']]])('refuses the path %j at once, naming it', (path) => {
    expect(() => fileStatusStore(path as string)).toThrow(InvalidArgumentError);
    expect(() => fileStatusStore(path as string)).toThrow(/fileStatusStore\(path\): `path` must be a folder path/);
  });

  it('refuses a bad ttl at once', () => {
    expect(() => fileStatusStore(folder(), { ttl: 0 })).toThrow(InvalidArgumentError);
    expect(() => fileStatusStore(folder(), { ttl: 1.5 })).toThrow(/ttl/);
    expect(() => fileStatusStore(folder(), null as never)).toThrow(InvalidArgumentError);
  });

  it('closes twice, closes before it ever opened, and opens again at the call after a close', async () => {
    const path = folder();
    const store = open(path);
    await store.close();
    await store.merge({ id: 'm1', status: 'sent' });
    await Promise.all([store.close(), store.close()]);
    await store.close();
    expect(await store.get('m1')).toEqual({ id: 'm1', status: 'sent' });
    await store.merge({ id: 'm1', status: 'read' });
    await store.close();
    // Closed means closed: another store has the folder now.
    expect(await open(path).get('m1')).toEqual({ id: 'm1', status: 'read' });
  });

  it('says why when the folder cannot be made (a file is in its place)', async () => {
    const path = join(root, `file-${(folders += 1)}`);
    writeFileSync(path, 'not a folder');
    const refused = open(path).get('m1');
    await expect(refused).rejects.toThrow(BizMsgError);
    await expect(refused).rejects.toThrow(`The status store at ${path} could not be opened`);
  });

  it("rejects, never hangs, where a parent folder cannot be made (Node's recursive mkdir never settles under /proc)", async () => {
    const refused = open('/proc/no-such-process/statuses').get('m1');
    await expect(refused).rejects.toThrow(BizMsgError);
    await expect(refused).rejects.toThrow('The status store at /proc/no-such-process/statuses could not be opened');
  });

  it('makes the missing parents of its folder', async () => {
    const path = join(root, `parents-${(folders += 1)}`, 'a', 'b');
    const store = open(path);
    await store.merge({ id: 'm1', status: 'sent' });
    expect(await store.get('m1')).toMatchObject({ id: 'm1', status: 'sent' });
  });

  it("the Web build's fileStatusStore throws, naming the stores that work there", () => {
    expect(() => webFileStatusStore(folder())).toThrow(BizMsgError);
    expect(() => webFileStatusStore(folder())).toThrow(/needs Node.*memoryStatusStore\(\).*redisStatusStore/);
  });
});

describe('without classic-level', () => {
  afterEach(() => {
    vi.doUnmock('classic-level');
    vi.resetModules();
  });

  it('rejects its first call, saying to install it', async () => {
    vi.resetModules();
    vi.doMock('classic-level', () => {
      throw new Error("Cannot find package 'classic-level'");
    });
    const { fileStatusStore: withoutPeer, BizMsgError: Base } = await import('../../../src/webhooks/index.js');
    const refused = withoutPeer(folder()).get('m1');
    await expect(refused).rejects.toThrow(Base);
    await expect(refused).rejects.toThrow(/fileStatusStore needs the package classic-level.*npm install classic-level/);
  });
});
