import Foundation
import GrouperSimCLI

// The executable only installs the signal handlers and maps the command line to an exit code.
GrouperCLI.installSignalHandlers()
exit(GrouperCLI.main(arguments: Array(CommandLine.arguments.dropFirst())))
