#if PostgreSQL
  import Foundation
  import SearchEngine
  import SearchPostgres

  #if canImport(Glibc)
    import Glibc
  #endif

  /// A PostgreSQL cluster of its own for a test: made with initdb in a temporary folder, started
  /// with pg_ctl on a free port of 127.0.0.1 (as the `postgres` user when the tests run as root,
  /// which PostgreSQL refuses to run as), and stopped and deleted afterwards.
  struct ThrowawayCluster {
    let folder: String
    let port: Int
    private let binaries: String
    private let runAs: String?

    /// The superuser every cluster is made with; local connections are trusted.
    static let user = "search"

    /// The address of the cluster's `postgres` database.
    var address: PostgresAddress {
      get throws {
        try PostgresAddress(
          url: "postgres://\(Self.user)@127.0.0.1:\(port)/postgres?sslmode=disable")
      }
    }

    /// A backend of `table` on this cluster, with patient timeouts.
    ///
    /// CI runs these tests beside the rest of the suite on two cores, where a batch of changes
    /// (a dozen statements) has taken over 15 s. The tests of the timeouts themselves make
    /// their own backends.
    func backend(
      table: String, schema: SearchModel.Schema, normalizer: Normalizer,
      statementTimeout: Duration? = .seconds(60)
    ) throws -> PostgresSearchBackend {
      try PostgresSearchBackend(
        address: try address, table: table, schema: schema, normalizer: normalizer,
        statementTimeout: statementTimeout, connectTimeout: .seconds(10),
        requestTimeout: .seconds(120))
    }

    /// Runs `body` with a started cluster, and stops it whatever happens.
    ///
    /// initdb and pg_ctl block their thread for seconds: they run off the caller's actor, which
    /// may be the main actor every controller test needs.
    static func with<T>(
      isolation: isolated (any Actor)? = #isolation, _ body: (ThrowawayCluster) async throws -> T
    ) async throws -> T {
      let cluster = try await Task.detached { try start() }.value
      do {
        let value = try await body(cluster)
        await Task.detached { cluster.stop() }.value
        return value
      } catch {
        await Task.detached { cluster.stop() }.value
        throw error
      }
    }

    static func start() throws -> ThrowawayCluster {
      let binaries = try findBinaries()
      let runAs = geteuid() == 0 ? "postgres" : nil
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("search-pg-\(UUID().uuidString.prefix(8))").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      if let runAs { try run("/bin/chown", [runAs, folder], as: nil) }
      let data = folder + "/data"
      try run(
        binaries + "/initdb",
        ["-D", data, "-U", user, "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
        as: runAs)
      return try launch(folder: folder, binaries: binaries, runAs: runAs)
    }

    /// A streaming standby of this cluster: a copy made with `pg_basebackup -R` (which writes
    /// how to reach the primary and marks the copy a standby), started on a port of its own.
    ///
    /// It answers read-only queries and replays what the primary writes, each commit
    /// `applyDelay` after it (`recovery_min_apply_delay`: a standby that lags, as one on a
    /// loaded machine or far away does). Stop it with ``stop()``.
    func startStandby(applyDelay: String = "0") throws -> ThrowawayCluster {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("search-pg-standby-\(UUID().uuidString.prefix(8))").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      if let runAs { try Self.run("/bin/chown", [runAs, folder], as: nil) }
      try Self.run(
        binaries + "/pg_basebackup",
        [
          "-h", "127.0.0.1", "-p", String(port), "-U", Self.user, "-D", folder + "/data", "-R",
          "-X", "stream", "--no-sync",
        ], as: runAs)
      try Self.setApplyDelay(applyDelay, data: folder + "/data")
      return try Self.launch(folder: folder, binaries: binaries, runAs: runAs)
    }

    /// Changes a standby's apply delay and has it read its configuration again.
    func setApplyDelay(_ delay: String) throws {
      try Self.setApplyDelay(delay, data: folder + "/data")
      _ = try psql("SELECT pg_reload_conf()")
    }

    /// Writes the apply delay into the configuration `pg_basebackup -R` wrote (the last
    /// setting of a name wins).
    private static func setApplyDelay(_ delay: String, data: String) throws {
      let file = data + "/postgresql.auto.conf"
      var text = try String(contentsOfFile: file, encoding: .utf8)
      text += "recovery_min_apply_delay = '\(delay)'\n"
      try text.write(toFile: file, atomically: false, encoding: .utf8)
    }

    /// Starts the server whose data is in `folder`/data on a free port.
    private static func launch(folder: String, binaries: String, runAs: String?) throws
      -> ThrowawayCluster
    {
      // A port free now may be taken before the server binds it: try a few.
      var lastError: (any Error)?
      for _ in 0..<5 {
        let port = try freePort()
        do {
          try run(
            binaries + "/pg_ctl",
            [
              "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "-o",
              "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off",
              "start",
            ], as: runAs)
          return ThrowawayCluster(folder: folder, port: port, binaries: binaries, runAs: runAs)
        } catch {
          lastError = error
        }
      }
      try? FileManager.default.removeItem(atPath: folder)
      throw lastError ?? ClusterError("pg_ctl could not start a server")
    }

    /// Stops the server at once and deletes its folder.
    func stop() {
      _ = try? Self.run(
        binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], as: runAs)
      try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops the server, keeping its data (to test a server that goes away).
    func pause() throws {
      try Self.run(
        binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"], as: runAs)
    }

    /// Starts a paused server again on the same port.
    func resume() throws {
      try Self.run(
        binaries + "/pg_ctl",
        [
          "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "-o",
          "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
        ], as: runAs)
    }

    /// Stops every process of the server with SIGSTOP, as a frozen machine would stop: open
    /// connections stay open and nothing answers on them.
    ///
    /// Returns the processes for ``thaw(_:)``.
    func freeze() throws -> [pid_t] {
      let pidFile = try String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8)
      guard let first = pidFile.split(separator: "\n").first, let postmaster = pid_t(first) else {
        throw ClusterError("no server process in \(folder)/data/postmaster.pid")
      }
      var processes = [postmaster]
      for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
        guard let pid = pid_t(entry),
          let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
          let end = stat.lastIndex(of: ")")
        else { continue }
        // "PID (NAME) STATE PPID …": the parent is the second field after the name.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        if fields.count > 1, pid_t(fields[1]) == postmaster { processes.append(pid) }
      }
      for pid in processes { kill(pid, SIGSTOP) }
      return processes
    }

    /// Lets the processes ``freeze()`` stopped run again.
    func thaw(_ processes: [pid_t]) {
      for pid in processes { kill(pid, SIGCONT) }
    }

    /// Runs SQL through psql as the superuser.
    func psql(_ sql: String, user: String = Self.user) throws -> String {
      try Self.run(
        binaries + "/psql",
        [
          "-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", "postgres", "-At", "-c", sql,
        ],
        as: nil)
    }

    // MARK: Helpers

    private static func findBinaries() throws -> String {
      for folder in [
        "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin",
      ]
      where FileManager.default.isExecutableFile(atPath: folder + "/initdb") {
        return folder
      }
      throw ClusterError("initdb not found: install Debian's postgresql (bash .ci/install-deps)")
    }

    /// Runs a program (as `user` when given) and returns its output; throws with the output
    /// when it fails.
    ///
    /// posix_spawn and waitpid: Foundation's Process can miss the exit of a program that leaves a
    /// daemon behind (pg_ctl start).
    @discardableResult
    private static func run(_ program: String, _ arguments: [String], as user: String?) throws
      -> String
    {
      let (status, output) = try runProgram(program, arguments, as: user)
      guard status == 0 else {
        throw ClusterError(
          "\(program) \(arguments.joined(separator: " ")) failed (status \(status)):\n\(output)")
      }
      return output
    }

    /// Runs a program and returns its exit status (-1 when a signal ended it) and its output
    /// (standard output, then standard error).
    static func runProgram(_ program: String, _ arguments: [String], as user: String? = nil) throws
      -> (status: Int32, output: String)
    {
      let result = try runProgramApart(program, arguments, as: user)
      return (result.status, result.output + result.errors)
    }

    /// Runs a program and returns its exit status (-1 when a signal ended it), its standard
    /// output and its standard error, apart.
    static func runProgramApart(
      _ program: String, _ arguments: [String], as user: String? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
      let command = user.map { ["/usr/sbin/runuser", "-u", $0, "--", program] } ?? [program]
      // Through bash, which closes every descriptor above 2 first: nothing of the test process
      // (another test's pipes, sockets) reaches the child, least of all the server pg_ctl leaves
      // running. Another user's program runs from /: the test's folder may be private (a
      // checkout in a folder of root's), which PostgreSQL's programs say on standard error.
      let closing =
        (user == nil ? "" : "cd / || exit 1; ")
        + "for f in /proc/$$/fd/*; do n=${f##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done; exec \"$@\""
      let argv = ["/bin/bash", "-c", closing, "bash"] + command + arguments
      let log = FileManager.default.temporaryDirectory
        .appendingPathComponent("search-pg-run-\(UUID().uuidString.prefix(8)).log").path
      defer { try? FileManager.default.removeItem(atPath: log) }
      let errors = log + ".err"
      defer { try? FileManager.default.removeItem(atPath: errors) }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      var pid = pid_t()
      let cArguments = argv.map { strdup($0) } + [nil]
      defer { for argument in cArguments { free(argument) } }
      let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
      guard spawned == 0 else { throw ClusterError("cannot run \(argv[0]): error \(spawned)") }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      let errorText = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      return (status & 0x7F == 0 ? (status >> 8) & 0xFF : -1, output, errorText)
    }

    /// A port no one listens on now, from the kernel.
    static func freePort() throws -> Int {
      let listener = try PortListener()
      defer { listener.close() }
      return listener.port
    }
  }

  struct ClusterError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
#endif
