extension PaletteCommand {
    /// `:resend`: Deliveries' `r`, asks to resend what failed.
    static let resend = PaletteCommand("resend", summary: "resend what failed (Deliveries)") { _, screen in
        screen.forward(to: .deliveries, as: DeliveriesPane.self) { $0.viewModel.requestResend() }
    }
}
