// The scenario library as one import: its layers are separate modules (so the compiler keeps
// each to the layers below it), and a client of the whole library imports them all here.
@_exported import Format
@_exported import Catalogs
@_exported import ScenarioFile
@_exported import Plan
@_exported import Execution
@_exported import GrouperBinding
@_exported import Timelines
@_exported import Reports
@_exported import Shrink
@_exported import Experiments
@_exported import Explore
