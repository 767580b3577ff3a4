import ArgumentParser
import Foundation
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

/// `SearchREPL check`: runs the regression cases of data sets (`cases.tsv` beside a manifest).
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the regression cases (cases.tsv) of data sets and report the failures.",
    discussion: """
      Each DIR is a folder holding a cases.tsv and its manifest, or a manifest path (the \
      cases.tsv beside it is run on that manifest). Without DIR, every folder of ./Corpus \
      that holds both a *.manifest.json and a cases.tsv. A cases file names its manifest in \
      a comment "# manifest: NAME" before its header; without one, the folder must hold \
      exactly one manifest. Each failure prints "corpus case: expected … got …"; the last \
      line is "N passed, N failed".
      Exit status: 0 when every case passed, 1 when one failed, 2 on an error.
      """
  )

  @Argument(help: "Folders with a cases.tsv, or manifest paths (default: Corpus/*/).")
  var paths: [String] = []

  @OptionGroup var dataFile: DataFileOption

  func run() throws {
    do { try check() } catch let error as RegressionError {
      throw CommandError(error.description)
    }
  }

  private func check() throws {
    let targets = try paths.isEmpty ? Self.discover(root: "Corpus") : paths.map(Self.target)
    var passed = 0
    var failed = 0
    for target in targets {
      let suite = try RegressionSuite.load(from: target.cases)
      let manifestPath = try target.manifest ?? Self.manifest(of: suite, in: target.directory)
      let source = try DataSource.load(
        input: nil, corpus: manifestPath,
        allowsDataOutsideFolder: dataFile.allowsDataOutsideFolder)
      let corpus = try SearchCorpus(model: source.model, normalizer: try Normalizer())
      for result in try suite.run(on: corpus) {
        switch result.outcome {
        case .passed: passed += 1
        case .failed(let expected, let got):
          failed += 1
          print("\(target.name) \(result.regressionCase.name): expected \(expected) got \(got)")
        }
      }
    }
    print("\(passed) passed, \(failed) failed")
    if failed > 0 { throw ExitCode(Terminal.noMatch) }
  }

  /// A cases file to run, and the manifest it runs on when the command line named one.
  struct Target {
    var name: String
    var directory: String
    var cases: String
    var manifest: String?
  }

  /// A folder, or a manifest path.
  static func target(_ path: String) throws -> Target {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CommandError("\(path): no such folder or manifest")
    }
    let url = URL(fileURLWithPath: path)
    let directory = isDirectory.boolValue ? url : url.deletingLastPathComponent()
    let cases = directory.appendingPathComponent("cases.tsv").path
    guard FileManager.default.fileExists(atPath: cases) else {
      throw CommandError("\(path): no cases.tsv in \(directory.path)")
    }
    return Target(
      name: directory.lastPathComponent, directory: directory.path, cases: cases,
      manifest: isDirectory.boolValue ? nil : path)
  }

  /// Every folder of `root` that holds a cases file and a manifest, in name order.
  static func discover(root: String) throws -> [Target] {
    let names: [String]
    do { names = try FileManager.default.contentsOfDirectory(atPath: root).sorted() } catch {
      throw CommandError("cannot list \(root): run check from the repository's root, or name DIRs")
    }
    var targets: [Target] = []
    for name in names {
      let directory = root + "/" + name
      let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      if files.contains("cases.tsv") && files.contains(where: { $0.hasSuffix(".manifest.json") }) {
        targets.append(
          Target(name: name, directory: directory, cases: directory + "/cases.tsv", manifest: nil))
      }
    }
    if targets.isEmpty { throw CommandError("no folder of \(root) has a cases.tsv and a manifest") }
    return targets
  }

  /// The manifest a suite names, or the folder's only manifest.
  static func manifest(of suite: RegressionSuite, in directory: String) throws -> String {
    if let name = suite.manifest {
      return name.hasPrefix("/") ? name : directory + "/" + name
    }
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let manifests = files.filter { $0.hasSuffix(".manifest.json") }.sorted()
    guard manifests.count == 1 else {
      throw CommandError(
        "\(suite.file): name the manifest in a comment \"# manifest: NAME\" before the header "
          + "(the folder holds \(manifests.count) manifests)")
    }
    return directory + "/" + manifests[0]
  }
}
