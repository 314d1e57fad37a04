import Foundation
import Scenarios

// Thin executable (STYLE.md §1): parse, call the library, map to an exit code.
GrouperCLI.installSignalHandlers()
exit(GrouperCLI.main(arguments: Array(CommandLine.arguments.dropFirst())))
