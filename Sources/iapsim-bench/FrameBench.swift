import Foundation
import IAPApp
import IAPCore
import IAPUI
import Terminal

/// The render figure: render the state into a grid and flush it to the terminal, frame after frame,
/// alternating the product list and the help overlay so that most of the screen changes every time.
enum FrameBench {
    static func run(session: AppSession, terminal: TerminalSession, theme: Theme, frames: Int = 400) -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        let size = terminal.size
        for frame in 0..<frames {
            session.press(.char("?"))
            var state = session.state
            state.selection = frame % max(state.products.count, 1)
            let elapsed = clock.measure {
                terminal.draw(Renderer.render(state, width: size.width, height: size.height, theme: theme))
            }
            samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        return samples.sorted()[samples.count / 2]
    }
}
