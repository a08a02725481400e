package lab.bridge.run;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.Rusage;
import lab.jobspec.BufferPattern;
import lab.jobspec.Job;
import lab.jobspec.JobFile;
import lab.jobspec.report.FioLab;
import lab.jobspec.report.FioReport;
import lab.jobspec.stats.CloneControl;
import lab.jobspec.stats.GroupStats;
import lab.jobspec.stats.RunReport;
import lab.jobspec.stats.StartGate;
import lab.jobspec.stats.WorkerStats;

/**
 * Runs a job file against real targets, fio's {@code run_threads()} for the native bridge, and
 * returns fio-shaped results ({@code "fio version"} = {@link #VERSION}).
 *
 * <h2>Phases</h2>
 * <ol>
 * <li>Check every job's target ({@link Target#check}): nothing is opened for writing and
 *     nothing is written while any job's check can still fail. A block device is written only if
 *     the lab made it ({@link DeviceOwnership}: kernel-scripts' registry), unless
 *     {@code --i-own-this-device}.</li>
 * <li>Hold every block device a job writes with {@code O_EXCL} ({@link DeviceClaim}), one
 *     descriptor per device for the whole run, whatever {@code --i-own-this-device} says: a
 *     device mounted, swapped on, stacked under dm/md or held by another program is refused.</li>
 * <li>Check every job's {@code ioscheduler} ({@link IoScheduler}); set it just before the start and
 *     write back the old one after the run, whatever happened.</li>
 * <li>Open every job's target (the claim's descriptor, or one per job, shared by its clones),
 *     extending regular files a write job needs larger.</li>
 * <li>Start {@code numjobs} {@link BridgeWorker}s per job on one barrier ({@link StartGate}).
 *     Each pins its thread to the job's {@code cpus_allowed} ({@link lab.jobspec.Cpus}), then
 *     makes its own engine on it; if any cannot, no I/O has been submitted and
 *     the run fails with {@link BridgeSetupException}. A job with {@code stonewall} or
 *     {@code wait_for} then waits until the jobs it waits for have ended
 *     ({@link lab.jobspec.JobOrder}), its engine already made.</li>
 * <li>Join (each clone closes its engine, which drains what is in flight first), close the
 *     targets, let the claims go, and report with the engine's rule ({@link RunReport}). The process's
 *     {@code getrusage(RUSAGE_SELF)} is taken just before the clones start and after the last
 *     is joined (warm-up included), so that analysis can divide the whole CPU cost by the I/Os.</li>
 * </ol>
 *
 * <p>A run with failed I/Os or verify failures (each stops its clone, EILSEQ) still returns its report; the entries say so
 * ({@code error}, {@code lab.errors}, {@code lab.verifyMismatches}) and the notes stream names
 * each. Not thread-safe; one run at a time per caller.
 */
public final class BridgeRun {

    /** {@code "fio version"} of the bridge's reports. */
    public static final String VERSION = "lab-bridge-0.1.0";

    /**
     * How to run: target override, ownership rule, engines.
     *
     * @param filenameOverride {@code --filename}: replaces every job's {@code filename=}; null for none
     * @param iOwnThisDevice   {@code --i-own-this-device}: write to any block device nothing else
     *                         holds exclusively
     * @param ownership        which block devices may be written when {@code iOwnThisDevice} is false
     * @param engines          makes each clone's engine
     */
    public record Options(String filenameOverride, boolean iOwnThisDevice, DeviceOwnership ownership,
                          EngineFactory engines) {

        /** The lab's registry and the real engines. */
        public static Options of(String filenameOverride, boolean iOwnThisDevice) {
            return new Options(filenameOverride, iOwnThisDevice, DeviceOwnership.registry(), EngineFactory.REAL);
        }
    }

    private BridgeRun() {
    }

    /**
     * Runs {@code file} with the live system's ownership rule and the real engines.
     *
     * @param notes where the run's notes go (e.g. {@code System.err}): setup, failed I/Os, mismatches
     * @throws BridgeSetupException the run could not start; nothing was submitted
     */
    public static FioReport run(JobFile file, String filenameOverride, boolean iOwnThisDevice, PrintStream notes)
            throws BridgeSetupException {
        return run(file.jobs(), Options.of(filenameOverride, iOwnThisDevice), notes);
    }

    /** {@link #run(JobFile, String, boolean, PrintStream)} with every choice explicit. */
    public static FioReport run(List<Job> given, Options options, PrintStream notes) throws BridgeSetupException {
        List<Job> jobs = new ArrayList<>();
        for (Job job : given) {
            jobs.add(withTargetSize(job, options, notes));
        }
        List<Target> targets = new ArrayList<>();
        // the files of the clones of one Target[]: nrfiles of them, file i at [i]
        List<Target[]> units = new ArrayList<>();
        Map<String, Long> laidOut = new HashMap<>();
        for (Job job : jobs) {
            String override = options.filenameOverride();
            if (override != null && job.nrfiles() > 1) {
                throw new BridgeSetupException("job '" + job.name() + "' (" + job.source() + ":" + job.line()
                        + "): --filename names one target, but the job has nrfiles=" + job.nrfiles() + " files in"
                        + " directory " + job.directory() + "; drop --filename");
            }
            if (override == null && job.filePerClone()) {
                for (int c = 0; c < job.numjobs(); c++) {
                    Target[] files = new Target[job.nrfiles()];
                    for (int f = 0; f < files.length; f++) {
                        files[f] = Target.check(job, job.path(c, f), f, c, 1, options.iOwnThisDevice(),
                                options.ownership(), laidOut);
                        targets.add(files[f]);
                    }
                    units.add(files);
                }
            } else {
                Target t = Target.check(job, override != null ? override : job.path(0), 0, 0, job.numjobs(),
                        options.iOwnThisDevice(), options.ownership(), laidOut);
                targets.add(t);
                units.add(new Target[] {t});
            }
        }
        IoScheduler schedulers = IoScheduler.check(targets, options.iOwnThisDevice(), options.ownership(),
                Path.of("/sys/dev/block"));
        Map<Long, DeviceClaim> claims = new LinkedHashMap<>();
        try {
            for (Target t : targets) {
                if (t.block && t.job.rw().modifies() && !claims.containsKey(t.rdev)) {
                    claims.put(t.rdev, DeviceClaim.take(t, options.iOwnThisDevice(), options.ownership()));
                }
            }
            List<BridgeWorker> workers = new ArrayList<>();
            List<CloneControl> controls = CloneControl.forRun(jobs);
            long[] threadSeeds = BufferPattern.threadSeeds(jobs);
            Map<Job, Integer> firstClone = new HashMap<>();
            int clones = 0;
            for (Job j : jobs) {
                firstClone.put(j, clones);
                clones += j.numjobs();
            }
            for (Target[] files : units) {
                for (Target t : files) {
                    long before = t.sizeBytes();
                    t.open(t.block ? claims.get(t.rdev) : null);
                    if (t.create) {
                        notes.println("lab: made " + t.path + " (" + t.sizeBytes() + " bytes, sparse) for job '"
                                + t.job.name() + "'");
                    } else if (t.sizeBytes() != before && t.job.rw().writes()) {
                        notes.println("lab: extended " + t.path + " from " + before + " to " + t.sizeBytes() + " bytes");
                    }
                }
                Target t = files[0];
                for (int c = t.firstClone; c < t.firstClone + t.cloneCount; c++) {
                    BridgeWorker w = new BridgeWorker(t.job, c, files, options.engines());
                    w.affinity = t.job.placement().cpuNodes().isEmpty() ? t.job.cpus().forClone(workers.size())
                            : nodeCpus(t.job); // numa_cpu_nodes replaces cpus_allowed, as numa_run_on_node_mask()
                    w.control = controls.get(firstClone.get(t.job) + c);
                    w.pattern = BufferPattern.forThread(t.job, c, threadSeeds, firstClone.get(t.job) + c);
                    workers.add(w);
                }
            }
            schedulers.apply(notes);
            Instant wall = Instant.now();
            Rusage self0 = processUsage();
            StartGate.Started started = start(jobs, workers);
            Rusage self1 = processUsage();
            workers.forEach(w -> w.notes().forEach(n -> notes.println("lab: " + n)));
            return report(jobs, workers, wall, started, self0, self1, claims);
        } finally {
            schedulers.close();
            targets.forEach(Target::close);
            claims.values().forEach(DeviceClaim::close);
        }
    }

    /**
     * A job with neither {@code size} nor {@code filesize} covers its target from {@code offset} to
     * the end, as fio's {@code setup_files()} sizes it: the target is checked read-only
     * ({@link Target#check}, the ownership rule left to the real check that follows) for its size.
     * A target that does not exist is refused: fio too needs a size to make a file.
     */
    private static Job withTargetSize(Job job, Options options, PrintStream notes) throws BridgeSetupException {
        String path = options.filenameOverride() != null ? options.filenameOverride() : job.path(0);
        if (!job.sizeOfTarget() || path == null) {
            return job; // Target.check refuses a job with no target
        }
        String who = "job '" + job.name() + "' (" + job.source() + ":" + job.line() + ")";
        if (!java.nio.file.Files.exists(Path.of(path))) {
            throw new BridgeSetupException(who + ": " + path + " does not exist, and the job has no size= or filesize=:"
                    + " fio takes the size of an existing file or device; set size=, or name one that exists");
        }
        Target probe = Target.check(job, path, 0, 0, 1, true, options.ownership(), new HashMap<>());
        long bytes = probe.sizeBytes();
        String what = "";
        if (job.walk().fillDevice() && !probe.block) {
            try {
                long free = java.nio.file.Files.getFileStore(Path.of(path)).getUsableSpace();
                bytes = bytes > Long.MAX_VALUE - free ? Long.MAX_VALUE : bytes + free;
                what = ": the file and the " + free + " bytes free on its file system (fill_device: until ENOSPC)";
            } catch (java.io.IOException e) {
                throw new BridgeSetupException(who + ": fill_device: cannot read the free space of " + path + "'s"
                        + " file system: " + e.getMessage(), e);
            }
        }
        try {
            Job sized = job.withTargetSize(bytes);
            notes.println("lab: job '" + job.name() + "' has no size: it covers " + path + " from offset " + job.offset()
                    + ", " + sized.size() + " bytes" + what + " (fio takes the target's size likewise)");
            return sized;
        } catch (IllegalArgumentException e) {
            throw new BridgeSetupException(e.getMessage(), e);
        }
    }

    /** The CPUs of {@code job}'s {@code numa_cpu_nodes}, from {@code /sys/devices/system/node/nodeN/cpulist}. */
    static java.util.BitSet nodeCpus(Job job) throws BridgeSetupException {
        java.util.BitSet cpus = new java.util.BitSet();
        for (int node : job.placement().cpuNodes()) {
            Path list = Path.of("/sys/devices/system/node/node" + node + "/cpulist");
            try {
                for (String part : java.nio.file.Files.readString(list).strip().split(",")) {
                    if (part.isEmpty()) {
                        continue;
                    }
                    String[] ends = part.split("-");
                    int from = Integer.parseInt(ends[0]);
                    int to = ends.length == 2 ? Integer.parseInt(ends[1]) : from;
                    cpus.set(from, to + 1);
                }
            } catch (java.io.IOException | RuntimeException e) {
                throw new BridgeSetupException("job '" + job.name() + "' (" + job.source() + ":" + job.line()
                        + "): numa_cpu_nodes names node " + node + ", which this machine does not have (" + list
                        + ": " + e.getMessage() + ")");
            }
        }
        if (cpus.isEmpty()) {
            throw new BridgeSetupException("job '" + job.name() + "': numa_cpu_nodes " + job.placement().cpuNodes()
                    + " have no CPU");
        }
        return cpus;
    }

    private static StartGate.Started start(List<Job> jobs, List<BridgeWorker> workers) throws BridgeSetupException {
        try {
            return StartGate.runJobs(jobs, workers);
        } catch (StartGate.CloneFailedException e) {
            if (e.beforeStart()) {
                Throwable c = e.getCause();
                throw c instanceof BridgeSetupException s ? s : new BridgeSetupException(e.getMessage(), c);
            }
            throw new IllegalStateException("bridge worker failed: " + e.getMessage(), e.getCause());
        }
    }

    private static FioReport report(List<Job> jobs, List<BridgeWorker> workers, Instant wall,
                                    StartGate.Started started, Rusage self0, Rusage self1,
                                    Map<Long, DeviceClaim> claims) {
        Map<WorkerStats, BridgeWorker> byStats = new IdentityHashMap<>();
        workers.forEach(w -> byStats.put(w.stats, w));
        return RunReport.build(VERSION, wall, jobs, workers.stream().map(w -> w.stats).toList(), started, g -> {
            List<BridgeWorker> group = g.clones().stream().map(byStats::get).toList();
            Target t = group.getFirst().target;
            return lab(g, group, self0, self1, t.block && claims.containsKey(t.rdev));
        });
    }

    private static FioLab lab(GroupStats g, List<BridgeWorker> group, Rusage self0, Rusage self1, boolean held) {
        Target t = group.getFirst().target;
        List<String> notes = new ArrayList<>();
        notes.add("ioengine=" + t.job.ioengine().name().toLowerCase(java.util.Locale.ROOT)
                + (t.job.direct() ? ", O_DIRECT" : ", buffered") + " on " + (t.block ? "block device " : "file ")
                + t.realPath + (t.job.nrfiles() > 1 ? " and the clone's " + (t.job.nrfiles() - 1) + " other files"
                + " (nrfiles=" + t.job.nrfiles() + ", file_service_type=" + t.job.fileService() + ")" : "")
                + (held ? " (held with O_EXCL for the run)" : "")
                + "; clat = submit() to the reap that saw the completion");
        if (t.job.cpus().pinned()) {
            notes.add("pinned with sched_setaffinity to CPUs " + t.job.cpus().format() + (t.job.cpus().split()
                    ? " split: one CPU per clone (cpus_allowed_policy=split)" : " shared by every clone")
                    + "; lab.cpus = where each clone set up");
        }
        if (t.job.verify() != lab.jobspec.Verify.NONE && t.job.rw().writes()) {
            notes.add(verifyNote(t.job));
        }
        long mismatches = 0;
        long unwritten = 0;
        for (BridgeWorker w : group) {
            mismatches += w.verifyMismatches();
            unwritten += w.verifyUnwritten();
            notes.addAll(w.notes());
        }
        boolean rusage = self0 != null && self1 != null;
        return new FioLab("native-bridge", t.path, g.clones().size(), g.cpus(), g.errors(), List.copyOf(notes),
                t.realPath, t.sizeBytes(), t.logicalBlockSize,
                rusage ? self1.utimeNs() - self0.utimeNs() : null,
                rusage ? self1.stimeNs() - self0.stimeNs() : null,
                rusage ? (self1.nvcsw() + self1.nivcsw()) - (self0.nvcsw() + self0.nivcsw()) : null,
                mismatches, unwritten);
    }

    /** What {@code verify} does in a job that writes: what each write carries, and what is read back when. */
    static String verifyNote(Job job) {
        Job.Checks c = job.checks();
        String v = "verify=" + job.verify().fioName() + ": ";
        String carries = (job.verify() == lab.jobspec.Verify.PATTERN ? "verify_pattern" : "a header (the lab's layout,"
                + " not fio's)") + " every " + job.verifyInterval() + " bytes";
        String back;
        if (!c.doVerify()) {
            back = "nothing read back (do_verify=0)";
        } else if (job.runsForRuntime()) {
            back = "nothing read back: a time_based job that only writes never gets to its read-back (as fio warns)";
        } else {
            back = (c.backlog() > 0 ? "read back " + (c.backlogBatch() > 0 ? c.backlogBatch() : c.backlog())
                    + " at a time whenever " + c.backlog() + " wait (verify_backlog), the rest" : "read back")
                    + " after each pass, the reads counted as reads";
        }
        return v + "each write carries " + carries + "; " + back + (job.rw().reads() ? "; the job's own reads are not"
                + " checked (fio checks only read-backs in a job that also writes)" : "")
                + "; the first bad block stops the clone (EILSEQ)"
                + (c.async() > 0 ? "; checked on the clone's own thread (verify_async=" + c.async() + " not used)" : "");
    }

    private static Rusage processUsage() {
        try {
            return Libc.getrusage(Libc.RUSAGE_SELF);
        } catch (ErrnoException e) {
            return null;
        }
    }

}
