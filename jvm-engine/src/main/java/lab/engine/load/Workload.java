package lab.engine.load;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import lab.engine.block.BioVec;
import lab.engine.block.Bioset;
import lab.engine.block.BlockDevice;
import lab.engine.block.Gendisk;
import lab.engine.block.RamDisk;
import lab.jobspec.Job;
import lab.jobspec.JobFile;
import lab.jobspec.report.FioDirStats;
import lab.jobspec.report.FioGroups;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioJson;
import lab.jobspec.report.FioLab;
import lab.jobspec.report.FioOptions;
import lab.jobspec.report.FioReport;

/**
 * Runs a job file against an engine device, fio's backend.c ({@code run_threads()}) for the JVM
 * model, and returns fio-shaped results.
 *
 * <p>One device serves the whole file (as fio jobs share one {@code filename}): a {@link Gendisk}
 * over the chosen driver, sized to the largest {@code offset + size} of the jobs, submitted to
 * through its {@code part0}. Every job starts {@code numjobs} clones ({@link JobThread}), each on a
 * platform thread of its own owning one per-cpu slot: 0 .. N-1 over all clones of all jobs, in
 * file order. Bios come from one {@link Bioset} whose pages hold the largest {@code bs}. Clones
 * warm up (allocate their {@code iodepth} bios, fill the buffers), then wait at a start barrier;
 * its last arrival takes the common start time, so every clone's {@code ramp_time} and
 * {@code runtime} windows line up.
 *
 * <p>What the engine ignores: {@code ioengine} (one note to the notes stream per run; the clone
 * calls {@code submitBio} itself), {@code filename}, {@code direct}, {@code thread} and the
 * io_uring knobs. Results follow {@code group_reporting} as fio does ({@link FioGroups}).
 */
public final class Workload {

    /** {@code "fio version"} of the engine's reports. */
    public static final String VERSION = "lab-engine-0.1.0";

    private Workload() {
    }

    /**
     * Runs {@code file} on a new device of kind {@code device} and returns the report.
     * Blocks until every clone is done. Write the result with {@link FioReport#writeJson}.
     *
     * @param notes where the run's one-line notes go (e.g. {@code System.err})
     * @throws IllegalStateException when a worker fails (the cause says why)
     */
    public static FioReport run(JobFile file, DeviceKind device, PrintStream notes) {
        return run(file.jobs(), device, notes);
    }

    /** {@link #run(JobFile, DeviceKind, PrintStream)} for jobs that come without a file. */
    public static FioReport run(List<Job> jobs, DeviceKind device, PrintStream notes) {
        List<String> modelNotes = modelNotes(jobs, device, notes);
        BlockDevice driver = device.create(capacity(jobs));
        try (Bioset bioset = new Bioset(jobs.stream().mapToInt(Job::numjobs).sum(), maxBs(jobs))) {
            Gendisk disk = new Gendisk(driver);
            List<JobThread> tds = new ArrayList<>();
            for (Job job : jobs) {
                boolean timeBased = job.timeBased() && job.runtimeNs() > 0;
                for (int c = 0; c < job.numjobs(); c++) {
                    tds.add(new JobThread(job, c, tds.size(), disk.part0(), bioset, timeBased));
                }
            }
            Instant wall = Instant.now();
            long t0 = runThreads(tds);
            return report(jobs, tds, device, wall, t0, modelNotes);
        } finally {
            if (driver instanceof RamDisk ram) {
                ram.close();
            }
        }
    }

    /** Starts every clone, waits for all; returns the start barrier's time. */
    private static long runThreads(List<JobThread> tds) {
        long[] t0 = new long[1];
        CyclicBarrier gate = new CyclicBarrier(tds.size(), () -> t0[0] = System.nanoTime());
        Throwable[] failure = new Throwable[tds.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < tds.size(); i++) {
            JobThread td = tds.get(i);
            int slot = i;
            threads.add(Thread.ofPlatform().name("lab-" + td.job.name() + "." + td.clone).unstarted(() -> {
                try {
                    td.warmUp();
                    gate.await();           // barrier action's write of t0 happens-before await's return
                    td.run(t0[0]);
                } catch (Throwable e) {
                    failure[slot] = e;
                    gate.reset();           // wakes the others with BrokenBarrierException
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while jobs run", e);
            }
        }
        for (Throwable f : failure) {
            if (f != null && !(f instanceof BrokenBarrierException)) {
                throw new IllegalStateException("engine worker failed: " + f, f);
            }
        }
        return t0[0];
    }

    private static FioReport report(List<Job> jobs, List<JobThread> tds, DeviceKind device,
                                    Instant wall, long t0, List<String> notes) {
        Map<String, String> global = FioOptions.global(jobs);
        List<FioJob> entries = new ArrayList<>();
        for (List<JobThread> group : FioGroups.group(tds, td -> td.job)) {
            entries.add(entry(group, global, device, t0, notes));
        }
        return new FioReport(VERSION, wall.getEpochSecond(), wall.toEpochMilli(), FioJson.ctime(wall),
                global, entries);
    }

    /** One {@code jobs[]} entry: one clone, or a group summed as fio's {@code sum_thread_stats()}. */
    private static FioJob entry(List<JobThread> group, Map<String, String> global, DeviceKind device,
                                long t0, List<String> notes) {
        DirStat read = new DirStat();
        DirStat write = new DirStat();
        long maxRuntime = 0;
        long sumRuntime = 0;
        long usr = 0;
        long cpu = 0;                       // user and total sampled apart: total - user may dip below 0
        long ctx = 0;
        long errors = 0;
        long end = t0;
        int error = 0;
        List<Integer> cpus = new ArrayList<>();
        for (JobThread td : group) {
            read.merge(td.read);
            write.merge(td.write);
            maxRuntime = Math.max(maxRuntime, td.runtimeNs);
            sumRuntime += td.runtimeNs;
            usr += td.usrNs;
            cpu += td.cpuNs;
            ctx += td.ctx;
            errors += td.errors;
            end = Math.max(end, td.endNs);
            error = error != 0 ? error : td.error;
            cpus.add(td.cpu);
        }
        long runtimeMs = Math.max(1, maxRuntime / 1_000_000);
        Job first = group.getFirst().job;
        return new FioJob(first.name(), 0, error, (end - t0 + 999_999_999) / 1_000_000_000,
                FioOptions.jobOnly(first, global),
                read.toFio(runtimeMs), write.toFio(runtimeMs), FioDirStats.none(),
                sumRuntime / 1_000_000,
                FioJob.cpuPercent(usr, sumRuntime), FioJob.cpuPercent(Math.max(0, cpu - usr), sumRuntime), ctx, 0, 0,
                new FioLab("jvm-engine", device.cliName(), group.size(), cpus, errors, notes));
    }

    /** Prints the run's one note on {@code ioengine}; returns the notes every entry carries. */
    private static List<String> modelNotes(List<Job> jobs, DeviceKind device, PrintStream out) {
        TreeSet<String> engines = new TreeSet<>();
        jobs.forEach(j -> engines.add(j.ioengine().name().toLowerCase(Locale.ROOT)));
        String ignored = "engine ignores ioengine=" + String.join(",", engines);
        out.println(ignored);
        List<String> notes = new ArrayList<>();
        notes.add(device.modelNote());
        notes.add(ignored + ": each clone calls submitBio itself; iodepth = bios in flight per clone");
        notes.add("bio-based model: no request queue, blk-mq or I/O scheduler");
        if (jobs.stream().anyMatch(j -> j.filename() != null)) {
            notes.add("filename ignored: every job runs on the engine's " + device.cliName() + " device");
        }
        if (jobs.stream().anyMatch(j -> j.timeBased() && j.runtimeNs() == 0)) {
            notes.add("time_based without runtime: one pass of size, as without time_based");
        }
        return List.copyOf(notes);
    }

    /** The device holds every job's region: the largest {@code offset + size}, in whole pages. */
    private static long capacity(List<Job> jobs) {
        long bytes = BioVec.PAGE_SIZE;
        for (Job j : jobs) {
            bytes = Math.max(bytes, j.offset() + j.size());
        }
        return (bytes + BioVec.PAGE_SIZE - 1) / BioVec.PAGE_SIZE * BioVec.PAGE_SIZE;
    }

    private static int maxBs(List<Job> jobs) {
        return jobs.stream().mapToInt(Job::bs).max().orElse(BioVec.PAGE_SIZE);
    }
}
