import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import IAPUI
import LaunchOptions
import Launcher

struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Write every state's screen in both languages as text and SVG, with an index.html explaining each.")

    @Option(help: "The folder to write into (created if missing).", completion: .directory)
    var out: String

    @OptionGroup var catalog: CatalogOption

    func run() throws {
        let products = catalog.load()
        do { try DataDirectory(path: out).checkPath(option: "--out") } catch { Console.fail(error) }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try writeAll(products)
        } catch {
            Console.fail("cannot write the gallery to \(out) (\((error as NSError).localizedDescription)); give a folder you can write to (--out DIR)")
        }
    }

    private func writeAll(_ products: [Product]) throws {
        var pictures: [GalleryExport.Picture] = []
        for screen in GalleryScreen.all(catalog: products) {
            for lang in Language.allCases {
                let name = "\(screen.id).\(lang.rawValue)"
                let text = screen.render(lang, theme: .monochrome).text + "\n"
                try write(text, to: name + ".txt")
                try write(GalleryExport.svg(screen.render(lang, theme: .color)), to: name + ".svg")
                pictures.append(.init(id: screen.id, lang: lang, file: name + ".svg"))
            }
        }
        try write(GalleryExport.index(pictures), to: "index.html")
        print("wrote \(pictures.count) screens (\(pictures.count / 2) states × en, zh) as .txt and .svg, and index.html, to \(out)")
    }

    private func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: out).appendingPathComponent(name))
    }
}
