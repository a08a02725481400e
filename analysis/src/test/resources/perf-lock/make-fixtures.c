/*
 * Writes the perf-lock fixtures with the printf formats of perf 6.1's
 * tools/perf/builtin-lock.c (Debian linux-source-6.1): lock_stat_key_print_time(),
 * PRINT_KEY, print_contention_result() and print_bad_events(), copied below.
 * The numbers are made up; the text is what perf would print for them.
 * Build and run from this folder:  cc -o /tmp/mf make-fixtures.c && /tmp/mf
 */
#include <stdio.h>
#include <string.h>

static FILE *out;

static void print_time(unsigned long long nsec, int len)
{
	static const struct { float base; const char *unit; } table[] = {
		{ 1e9 * 3600, "h " }, { 1e9 * 60, "m " }, { 1e9, "s " },
		{ 1e6, "ms" }, { 1e3, "us" }, { 0, NULL },
	};
	for (int i = 0; table[i].unit; i++) {
		if (nsec < table[i].base)
			continue;
		fprintf(out, "%*.2f %s", len - 3, nsec / table[i].base, table[i].unit);
		return;
	}
	fprintf(out, "%*llu %s", len - 3, nsec, "ns");
}

/* contention_keys[]: name, header, len */
enum { CONTENDED, WAIT_TOTAL, WAIT_MAX, WAIT_MIN, AVG_WAIT };
static const struct { const char *header; int len; } keys[] = {
	{ "contended", 10 }, { "total wait", 12 }, { "max wait", 12 },
	{ "min wait", 12 }, { "avg wait", 12 },
};

struct st {
	unsigned long long contended, total, max, min;
	const char *type_or_pid, *name;
	const char *stack[3];
};

static void table(const char *path, const int *fields, int nf, int threads,
		  const struct st *rows, int nr, const int *bad_hist, int bad)
{
	out = fopen(path, "w");
	for (int k = 0; k < nf; k++)
		fprintf(out, "%*s ", keys[fields[k]].len, keys[fields[k]].header);
	if (threads)
		fprintf(out, "  %10s   %s\n\n", "pid", "comm");
	else
		fprintf(out, "  %10s   %s\n\n", "type", "caller");
	for (int r = 0; r < nr; r++) {
		const struct st *s = &rows[r];
		for (int k = 0; k < nf; k++) {
			int len = keys[fields[k]].len;
			switch (fields[k]) {
			case CONTENDED: fprintf(out, "%*llu", len, s->contended); break;
			case WAIT_TOTAL: print_time(s->total, len); break;
			case WAIT_MAX: print_time(s->max, len); break;
			case WAIT_MIN: print_time(s->min, len); break;
			case AVG_WAIT: print_time(s->total / s->contended, len); break;
			}
			fprintf(out, " ");
		}
		if (threads) {
			int pid;
			sscanf(s->type_or_pid, "%d", &pid);
			fprintf(out, "  %10d   %s\n", pid, s->name);
			continue;
		}
		fprintf(out, "  %10s   %s\n", s->type_or_pid, s->name);
		for (int i = 0; i < 3 && s->stack[i]; i++)
			fprintf(out, "\t\t\t%s\n", s->stack[i]);
	}
	if (bad_hist) {
		const char *name[4] = { "acquire", "acquired", "contended", "release" };
		fprintf(out, "\n=== output for debug===\n\n");
		fprintf(out, "bad: %d, total: %d\n", bad, nr);
		fprintf(out, "bad rate: %.2f %%\n", (double)bad / (double)nr * 100);
		fprintf(out, "histogram of events caused bad sequence\n");
		for (int i = 0; i < 4; i++)
			fprintf(out, " %10s: %d\n", name[i], bad_hist[i]);
	}
	fclose(out);
}

int main(void)
{
	/* perf lock contention -i perf.data -k contended -F contended,wait_total,wait_max,avg_wait -E 50 */
	static const int lab[] = { CONTENDED, WAIT_TOTAL, WAIT_MAX, AVG_WAIT };
	static const struct st callers[] = {
		{ 48213, 7512345678901ULL, 95123456789ULL, 0, "rwsem:W", "dm_bufio_lock+0x1a" },
		{ 20480, 61234567890ULL, 2345678901ULL, 0, "mutex", "dm_bufio_lock+0x2f" },
		{ 9000, 3456789012ULL, 12345678ULL, 0, "spinlock", "bio_associate_blkg+0x21" },
		{ 700, 45678901ULL, 987654ULL, 0, "rwsem:R", "thin_map+0x1b5" },
		{ 31, 123456ULL, 9876ULL, 0, "pcpu-sem:R", "Unknown" },
		{ 2, 1800ULL, 999ULL, 0, "rwlock:W", "update_io_ticks" },
		{ 1, 640ULL, 640ULL, 0, "semaphore", "dm_bufio_lock+0x44" },
	};
	table("lock-contention.txt", lab, 4, 0, callers, 7, NULL, 0);
	table("lock-contention-empty.txt", lab, 4, 0, NULL, 0, NULL, 0);

	/* perf lock contention -v -i perf.data -k contended -F avg_wait,wait_total,wait_min */
	static const int odd[] = { AVG_WAIT, WAIT_TOTAL, WAIT_MIN, CONTENDED };
	static const struct st verbose[] = {
		{ 57, 2280000ULL, 80000ULL, 12000ULL, "mutex", "dm_bufio_lock+0x1a",
		  { "0xffffffff81a0c2f0  mutex_lock+0x20", "0xffffffffa0123456  dm_bufio_lock+0x1a",
		    "0xffffffffa0124567  dm_bufio_get+0x33" } },
		{ 4, 4000ULL, 1500ULL, 500ULL, "spinlock", "blk_account_io_done+0x8c",
		  { "0xffffffff81b00010  _raw_spin_lock+0x10", "0xffffffff8140ab1c  blk_account_io_done+0x8c" } },
	};
	static const int bad_hist[] = { 0, 0, 3, 0 };
	table("lock-contention-verbose.txt", odd, 4, 0, verbose, 2, bad_hist, 1);

	/* perf lock contention -i perf.data -t -k contended -F contended,wait_total,wait_max,avg_wait */
	static const struct st threads[] = {
		{ 1500, 9876543ULL, 65432ULL, 0, "4321", "fio" },
		{ 800, 555555ULL, 4444ULL, 0, "17", "kworker/u4:2" },
		{ 3, 999ULL, 400ULL, 0, "5012", "VM Thread" },
	};
	table("lock-contention-threads.txt", lab, 4, 1, threads, 3, NULL, 0);
	return 0;
}
