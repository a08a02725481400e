package lab.engine.load;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import lab.engine.block.BioVec;
import lab.engine.block.Bioset;
import lab.engine.block.BlockDevice;
import lab.engine.block.Gendisk;
import lab.engine.block.RamDisk;
import lab.engine.blkcg.Blkcg;
import lab.engine.count.SharedLines;
import lab.engine.dm.LinearStack;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.engine.work.CpuWork;
import lab.jobspec.BufferPattern;
import lab.jobspec.Job;
import lab.jobspec.JobFile;
import lab.jobspec.report.FioLab;
import lab.jobspec.report.FioReport;
import lab.jobspec.stats.RunReport;
import lab.jobspec.stats.CloneControl;
import lab.jobspec.stats.StartGate;

/**
 * Runs a job file against an engine device, fio's backend.c ({@code run_threads()}) for the JVM
 * model, and returns fio-shaped results.
 *
 * <p>One device serves the whole file (as fio jobs share one {@code filename}): a {@link Gendisk}
 * over the chosen driver, sized to the largest {@code offset + size} of the jobs, submitted to
 * through its {@code part0}. Every job starts {@code numjobs} clones ({@link JobThread}), each on a
 * platform thread of its own owning one per-cpu slot: 0 .. N-1 over all clones of all jobs, in
 * file order. Bios come from one {@link Bioset} whose pages hold the largest I/O of any job ({@link Job#maxBs()}). Clones
 * warm up (allocate their {@code iodepth} bios, fill the buffers), then wait at a start barrier;
 * its last arrival takes the common start time, so every clone's {@code ramp_time} and
 * {@code runtime} windows line up. A job with {@code stonewall} or {@code wait_for} starts when
 * the jobs it waits for have ended, as in fio ({@link lab.jobspec.JobOrder}); its windows count
 * from there.
 *
 * <p>{@code base_ns} (a lab key, {@link Job#baseNs()}): the device spends that many ns of
 * calibrated CPU per bio in its submit ({@link CpuWork}). One device serves the file: where jobs
 * give different values it spends the largest, and a note says so; a note in every entry says
 * what was spent.
 *
 * <p>What the engine ignores: {@code ioengine} (one note to the notes stream per run; the clone
 * calls {@code submitBio} itself), {@code filename}, {@code direct}, {@code thread}, the
 * io_uring knobs, {@code verify}/{@code verify_pattern} (a note in every entry says so), and
 * {@code cpus_allowed}/{@code cpumask}, {@code directory}/{@code filesize} and {@code ioscheduler}
 * (printed once, and in every entry).
 * Results follow {@code group_reporting} as fio does ({@link RunReport}).
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
        return run(file.jobs(), device, StackSpec.PLAIN, notes);
    }

    /** {@link #run(JobFile, DeviceKind, PrintStream)} through {@code stack}. */
    public static FioReport run(JobFile file, DeviceKind device, StackSpec stack, PrintStream notes) {
        return run(file.jobs(), device, stack, notes);
    }

    /** {@link #run(JobFile, DeviceKind, PrintStream)} for jobs that come without a file. */
    public static FioReport run(List<Job> jobs, DeviceKind device, PrintStream notes) {
        return run(jobs, device, StackSpec.PLAIN, notes);
    }

    /**
     * The jobs through {@code spec}: its dm-linear layers over the device (the {@link Gendisk} then
     * sits on the top layer), every bio associated with one cgroup (a child of the root) as
     * {@code spec.css()} says, and the injections ({@link StackSpec#injections}).
     *
     * @throws IllegalArgumentException when the injections do not fit (see {@link StackSpec#injections})
     */
    public static FioReport run(List<Job> jobs, DeviceKind device, StackSpec spec, PrintStream notes) {
        checkRunnable(jobs);
        long baseNs = baseNs(jobs);
        CpuWork work = CpuWork.forNs(baseNs);
        int nrCpus = jobs.stream().mapToInt(Job::numjobs).sum();
        Injection inject = new Injection(spec.injections(jobs), nrCpus, SharedLines.NONE);
        List<String> modelNotes = modelNotes(jobs, device, work, notes);
        modelNotes.addAll(stackNotes(spec, inject, device));
        BlockDevice driver = device.create(capacity(jobs), work);
        Rcu rcu = new Rcu(nrCpus);
        LinearStack stack = LinearStack.over(driver, spec.dmLinear(), nrCpus, rcu, spec.css(), inject);
        Blkcg cgroup = Blkcg.root(spec.css(), rcu, SharedLines.NONE).child("lab", rcu, SharedLines.NONE);
        try (Bioset bioset = new Bioset(nrCpus, maxBs(jobs))) {
            Gendisk disk = new Gendisk(stack.top());
            List<JobThread> tds = new ArrayList<>();
            List<CloneControl> controls = CloneControl.forRun(jobs);
            long[] threadSeeds = BufferPattern.threadSeeds(jobs);
            for (Job job : jobs) {
                for (int c = 0; c < job.numjobs(); c++) {
                    JobThread td = new JobThread(job, c, tds.size(), disk.part0(), bioset, rcu, cgroup, inject);
                    td.control = controls.get(tds.size());
                    td.pattern = BufferPattern.forThread(job, c, threadSeeds, tds.size());
                    tds.add(td);
                }
            }
            Instant wall = Instant.now();
            StartGate.Started started = runThreads(jobs, tds);
            return report(jobs, tds, device, wall, started, List.copyOf(modelNotes));
        } finally {
            stack.close();
            if (driver instanceof RamDisk ram) {
                ram.close();
            }
        }
    }

    /** Starts every clone in fio's job order ({@link StartGate#runJobs}), waits for all. */
    private static StartGate.Started runThreads(List<Job> jobs, List<JobThread> tds) {
        try {
            return StartGate.runJobs(jobs, tds);
        } catch (StartGate.CloneFailedException e) {
            throw new IllegalStateException("engine worker failed: " + e.getCause(), e.getCause());
        }
    }

    private static FioReport report(List<Job> jobs, List<JobThread> tds, DeviceKind device,
                                    Instant wall, StartGate.Started started, List<String> notes) {
        return RunReport.build(VERSION, wall, jobs, tds.stream().map(td -> td.stats).toList(), started,
                g -> new FioLab("jvm-engine", device.cliName(), g.clones().size(), g.cpus(), g.errors(), notes));
    }

    /** Prints the run's one note on {@code ioengine}; returns the notes every entry carries. */
    private static List<String> modelNotes(List<Job> jobs, DeviceKind device, CpuWork work, PrintStream out) {
        TreeSet<String> engines = new TreeSet<>();
        jobs.forEach(j -> engines.add(j.ioengine().name().toLowerCase(Locale.ROOT)));
        String ignored = "engine ignores ioengine=" + String.join(",", engines);
        out.println(ignored);
        List<String> notes = new ArrayList<>();
        if (jobs.stream().anyMatch(j -> j.ioscheduler() != null)) {
            String sched = "ioscheduler: no effect in the JVM model (bio-based: no request queue to schedule)";
            out.println(sched);
            notes.add(sched);
        }
        if (jobs.stream().anyMatch(j -> j.directory() != null || j.filesize() > 0)) {
            String files = "directory/filesize: no effect in the JVM model (it has no files: each job's region is its"
                    + " size, capped by filesize as fio caps it)";
            out.println(files);
            notes.add(files);
        }
        if (jobs.stream().anyMatch(j -> j.nrfiles() > 1)) {
            String nr = "nrfiles: the JVM model has no files: a clone's files lie end to end in its one region, each"
                    + " with its share of size, visited as file_service_type says; the I/O count is fio's";
            out.println(nr);
            notes.add(nr);
        }
        if (jobs.stream().anyMatch(j -> j.cpus().pinned())) {
            String pin = "cpus_allowed/cpumask: no effect in the JVM model (its clones own per-cpu slots, not CPUs;"
                    + " the bridge pins them)";
            out.println(pin);
            notes.add(pin);
        }
        if (jobs.stream().anyMatch(j -> j.placement().any())) {
            String place = "numa_cpu_nodes/numa_mem_policy/prioclass/prio/cmdprio_*: no effect in the JVM model (its"
                    + " memory is the JVM's and it has no I/O scheduler to read a priority; the bridge sets them)";
            out.println(place);
            notes.add(place);
        }
        notes.add(device.modelNote());
        notes.add(ignored + ": each clone calls submitBio itself; iodepth = bios in flight per clone");
        notes.add("bio-based model: no request queue, blk-mq or I/O scheduler");
        if (work.ns() != 0) {
            notes.add("base_ns=" + work.ns() + ": the device's submitBio spends " + work + " per bio");
        }
        if (jobs.stream().mapToLong(Job::baseNs).distinct().count() > 1) {
            notes.add("base_ns differs between jobs: one device serves the file and spends the largest, "
                    + work.ns() + " ns, on every job's bios");
        }
        if (jobs.stream().anyMatch(j -> j.filename() != null)) {
            notes.add("filename ignored: every job runs on the engine's " + device.cliName() + " device");
        }
        if (jobs.stream().anyMatch(j -> j.verify() != lab.jobspec.Verify.NONE)) {
            notes.add("verify and verify_pattern not checked: the model keeps no data to check (the bridge checks them);"
                    + " its read-backs (do_verify, verify_backlog) are issued and counted as reads, as fio's");
        }
        if (jobs.stream().anyMatch(j -> j.timeBased() && j.runtimeNs() == 0)) {
            notes.add("time_based without runtime: one pass of size, as without time_based");
        }
        if (jobs.stream().anyMatch(j -> j.rw().trims())) {
            String trims = "trims: REQ_OP_DISCARD bios; the " + device.cliName() + " device does no discards (Linux"
                    + " 6.1: " + device.discardNote() + "), so each trim ends with EOPNOTSUPP (95) and its clone"
                    + " stops, as fio's on that device";
            out.println(trims);
            notes.add(trims);
        }
        return notes;
    }

    /** What the stack adds: its layers, the cgroup forwarding, the injections. */
    private static List<String> stackNotes(StackSpec spec, Injection inject, DeviceKind device) {
        List<String> notes = new ArrayList<>();
        if (spec.dmLinear() > 0) {
            notes.add("dm: " + spec.dmLinear() + " nested dm-linear layer(s) over " + device.cliName()
                    + ", each cloning every bio (bio_alloc_clone) and mapping it to the layer below");
        }
        notes.add("css=" + spec.css().id() + ": every bio in one cgroup; how bios and clones hold it (lab.engine.blkcg.CssForward)");
        if (!inject.injects().isEmpty()) {
            notes.add("inject=" + inject + ": shared-line operations added on the bio's path (lab.engine.inject)");
        }
        return notes;
    }

    /**
     * Refuses what the model cannot run, naming the job's file and line: a job with no
     * {@code size} or {@code filesize} (on a real file or device fio, and the bridge, take its
     * size, but the engine's device is made to hold the jobs' regions, so there is no size to
     * take).
     *
     * @throws IllegalArgumentException naming the job's file and line
     */
    public static void checkRunnable(List<Job> jobs) {
        for (Job j : jobs) {
            String where = j.source() + ":" + j.line() + ": job '" + j.name() + "' ";
            if (j.sizeOfTarget()) {
                throw new IllegalArgumentException(where + "has no size="
                        + " or filesize=: the JVM engine models its device from the jobs' regions and has no file or"
                        + " device to take a size from (the bridge takes the target's, as fio); add size=");
            }
        }
    }

    /** The device's {@code base_ns}: the jobs' largest (they share the device). */
    private static long baseNs(List<Job> jobs) {
        return jobs.stream().mapToLong(Job::baseNs).max().orElse(0);
    }

    /** The device holds every clone's region: the largest {@code offset + size} (files end to end), in whole pages. */
    private static long capacity(List<Job> jobs) {
        long bytes = BioVec.PAGE_SIZE;
        for (Job j : jobs) {
            bytes = Math.max(bytes, j.offset(j.numjobs() - 1) + JobThread.regionBytes(j)); // offset_increment
        }
        return (bytes + BioVec.PAGE_SIZE - 1) / BioVec.PAGE_SIZE * BioVec.PAGE_SIZE;
    }

    private static int maxBs(List<Job> jobs) {
        return jobs.stream().mapToInt(Job::maxBs).max().orElse(BioVec.PAGE_SIZE);
    }
}
